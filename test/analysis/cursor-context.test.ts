import * as assert from 'node:assert/strict';
import { cursorContext } from '../../shared/analysis/model/cursor-context';
import { cursorPosition, type CursorPosition } from '../../shared/analysis/model/cursor-position';
import { withCursor } from './cursor-marker';

function position(src: string): CursorPosition | undefined {
  const { text, offset } = withCursor(src);
  const ctx = cursorContext(text, offset);
  return ctx && cursorPosition(ctx);
}

describe('cursor context', () => {
  it('counts arguments past commas inside strings and nested arrays', () => {
    assert.deepEqual(position("<?php Route::any('a,b', array('x' => array(1, 2)), |"), { kind: 'route-argument', method: 'any', written: 'any', argIndex: 2 });
  });

  it('reads the method case-insensitively, `\\Route` included', () => {
    assert.deepEqual(position("<?php \\Route::GET('|"), { kind: 'route-argument', method: 'get', written: 'GET', argIndex: 0 });
  });

  it('knows the string at the cursor, terminated or not', () => {
    const a = withCursor("<?php Route::get('x', 'blog/po|sts');");
    const ctx = cursorContext(a.text, a.offset)!;
    assert.equal(ctx.string?.typed, 'blog/po');
    assert.equal(ctx.string?.terminated, true);
    const b = withCursor("<?php Route::get('x', 'blog/|");
    assert.equal(cursorContext(b.text, b.offset)!.string?.terminated, false);
  });

  it('an unterminated string only swallows what follows the cursor', () => {
    assert.deepEqual(position("<?php Route::get('x', 'bl|\nRoute::get('y', 'z');"), { kind: 'route-argument', method: 'get', written: 'get', argIndex: 1 });
  });

  it('a statement left unclosed does not capture the next one', () => {
    assert.deepEqual(position("<?php Route::any('a', 'b';\nRoute::get('x', 'y', array(|"), { kind: 'option-key', method: 'get', written: 'get', keys: [] });
  });

  it('option keys, values, and the keys already written', () => {
    assert.deepEqual(position("<?php Route::resources('p', ['module' => 'blog', '|']);"), { kind: 'option-key', method: 'resources', written: 'resources', keys: ['module'] });
    assert.deepEqual(position("<?php Route::resources('p', ['constraint' => |"), { kind: 'option-value', method: 'resources', written: 'resources', key: 'constraint' });
    assert.equal(position("<?php Route::resources('p', ['constraint' => '(:num)' |"), undefined);
  });

  it('an array that is not the options argument, or inside an expression, is not an options array', () => {
    assert.equal(position("<?php Route::get(array(|"), undefined);
    assert.equal(position("<?php Route::get('a', 'b', array_merge($x, array(|"), undefined);
    assert.equal(position("<?php Route::prefix('a', [|"), undefined);
  });

  it('$route keys and values, chained keys included', () => {
    assert.deepEqual(position("<?php $route['|'] = 'x';"), { kind: 'route-key' });
    assert.deepEqual(position("<?php $route['a'] = '|';"), { kind: 'route-value' });
    assert.deepEqual(position("<?php $route['a']['put'] = '|';"), { kind: 'route-value' });
    assert.equal(position("<?php $other['a'] = '|';"), undefined);
  });

  it('nothing inside comments or nested calls', () => {
    assert.equal(position("<?php Route::get('a', // |"), undefined);
    assert.equal(position("<?php Route::get('a', /* | */"), undefined);
    assert.equal(position("<?php Route::get(strtolower('|'));"), undefined);
  });

  it('never throws on odd input', () => {
    assert.equal(cursorContext('<?php x', 99), undefined);
    assert.equal(cursorContext('<?php x', -1), undefined);
    assert.equal(cursorContext(undefined as unknown as string, 0), undefined);
    for (const src of ['<?php )))]]]}}}|', '<?php "{$a[|', "<?php <<<EOT\n|", '|']) {
      const { text, offset } = withCursor(src);
      const ctx = cursorContext(text, offset);
      if (ctx) cursorPosition(ctx);
    }
  });
});
