import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_URI_FILTER, refusedSegment, refuses, uriFilterOf } from '../../shared/router/uri-filter';
import { ROOT } from '../helpers/paths';

/** CI_URI::filter_uri()'s answers, recorded from PHP 8.2 (PCRE2 10.42): per value of permitted_uri_chars, a 1 per segment refused. */
interface FilterVectors {
  segments: string[];
  cases: { permitted_uri_chars: string; refused: string }[];
}

const vectors = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/uri-filter/filter.json'), 'utf8')) as FilterVectors;

/** Values whose classes are read otherwise under PHP's `u` (PCRE2_UCP): left unknown. */
const NOT_READ = /\\[sh]|\[:/;

describe("the URI filter (CI_URI::filter_uri(), permitted_uri_chars), against PHP's answers", () => {
  for (const c of vectors.cases) {
    it(`'${c.permitted_uri_chars}'`, () => {
      const filter = uriFilterOf(c.permitted_uri_chars);
      vectors.segments.forEach((segment, i) => {
        const ours = refuses(filter, segment);
        const php = c.refused[i] === '1';
        // Never a wrong answer; not known only for the values not read.
        if (ours === undefined) assert.ok(NOT_READ.test(c.permitted_uri_chars), `${JSON.stringify(segment)}: not known`);
        else assert.equal(ours, php, `${JSON.stringify(segment)}: PHP ${php ? 'refuses' : 'lets it through'}`);
      });
      assert.equal(NOT_READ.test(c.permitted_uri_chars), filter.kind === 'unknown');
    });
  }

  it('lets ſ and the Kelvin sign through where s and k are permitted, as /iu does', () => {
    assert.equal(refusedSegment(DEFAULT_URI_FILTER, ['tags', '\u017f', 'x\u212ay']), undefined);
    assert.deepEqual(refusedSegment(DEFAULT_URI_FILTER, ['tags', 'caf\u00e9']), {
      segment: 'caf\u00e9',
      why: "the segment 'caf\u00e9' holds a character CodeIgniter's default config.php's permitted_uri_chars 'a-z 0-9~%.:_\\-' does not permit",
    });
    assert.deepEqual(refusedSegment(uriFilterOf('a-r', 'config/config.php'), ['\u017f']), { segment: '\u017f', why: "the segment '\u017f' holds a character config/config.php's permitted_uri_chars 'a-r' does not permit" });
    assert.equal(refusedSegment(uriFilterOf('a-r'), ['\u212a']), undefined);
  });

  it('says why PHP fails on a value, and what it cannot read', () => {
    const slash = uriFilterOf('a-z/');
    assert.equal(slash.kind, 'refuses');
    assert.match(slash.kind === 'refuses' ? slash.why : '', /unescaped '\/'/);
    // Every segment refused, each with the setting's fault as why.
    assert.deepEqual(refusedSegment(slash, ['photos', '12']), { segment: 'photos', why: slash.kind === 'refuses' ? slash.why : '' });
    assert.equal(uriFilterOf('a-z\\/').kind, 'class', 'an escaped delimiter is the character');
    assert.equal(uriFilterOf('z-a').kind, 'refuses');
    assert.equal(uriFilterOf('').kind, 'none');
    const unread = refusedSegment(uriFilterOf('\\s\\w'), ['a']);
    assert.ok(unread && 'unknown' in unread && /not known: permitted_uri_chars '\\s\\w' holds '\\s'/.test(unread.unknown), JSON.stringify(unread));
    // A segment PHP calls empty() is never tested.
    assert.equal(refusedSegment(uriFilterOf('a-z'), ['0']), undefined);
  });
});
