import * as assert from 'node:assert/strict';
import { marked } from 'marked';
import { htmlText, iconLabelText, markdownCode, markdownCodeBlock, markdownCodeCell, markdownText, markdownUrl, messageText, terminalJson, terminalText, visibleControls } from '../../shared/util/escape';

/** Workspace texts an attacker controls: links, images, HTML, code-span breakers, table breakers, terminal sequences, bidi. */
export const HOSTILE = [
  '[x](command:workbench.action.terminal.new?%5B%5D)',
  '![p](https://evil/p.png)',
  '<img src=x onerror=alert(1)>',
  '`code` ``two`` ```three```',
  'a|b|c',
  'line\nnext\r\n# heading',
  '\u001b]0;title\u0007',
  '\u001b]52;c;ZWNobyBoaQ==\u0007',
  '\u001b[2K\u001b[1A',
  '\u009b31m',
  'abc\u202Eevil\u2066x\u2069',
  'https://evil.example/track?x=1',
  'www.evil.example',
  '<https://evil.example>',
  'a\\|b',
  '*emph* _u_ **b** ~~s~~',
  '&amp; &#x3c;',
  '    indented',
  '1. list',
  '> quote',
  '\\',
  ' padded ',
  '`',
  '',
];

/** Anything a terminal or a reader of a log could take for a control. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

function html(markdown: string): string {
  return marked.parse(markdown, { async: false, gfm: true }) as string;
}

/** The text a reader sees in rendered HTML (tags dropped, entities decoded). */
function seen(rendered: string, trim = true): string {
  const text = rendered
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
  return trim ? text.trim() : text;
}

/** What the rendered HTML must not hold: a link, an image, raw HTML from the input, a heading, a list, emphasis. */
function assertInert(rendered: string, input: string): void {
  assert.doesNotMatch(rendered, /<a\b|<img\b|<h\d|<li\b|<em\b|<strong\b|<del\b|<blockquote\b|<pre\b/i, `${terminalJson(input)} rendered as ${rendered}`);
  assert.doesNotMatch(rendered, RAW_CONTROL, `${terminalJson(input)} rendered with a raw control`);
}

describe('escape: Markdown text', () => {
  for (const input of HOSTILE) {
    it(`${terminalJson(input)} is read as it is and forms nothing`, () => {
      const rendered = html(`Route ${markdownText(input)} here`);
      assertInert(rendered, input);
      assert.equal(seen(rendered), `Route ${visibleControls(input)} here`.trim());
    });
  }
});

describe('escape: Markdown code spans', () => {
  for (const input of HOSTILE) {
    it(`${terminalJson(input)} is one code span holding the text`, () => {
      const rendered = html(`Route ${markdownCode(input)} here`);
      assertInert(rendered, input);
      const spans = [...rendered.matchAll(/<code>([\s\S]*?)<\/code>/g)];
      assert.equal(spans.length, 1, rendered);
      assert.equal(seen(spans[0][1], false), input === '' ? "''" : visibleControls(input));
    });
  }

  it('picks a fence longer than any backtick run and pads a text that starts with one', () => {
    assert.equal(markdownCode('a``b'), '```a``b```');
    assert.equal(markdownCode('`x'), '`` `x ``');
    assert.equal(markdownCode(' x '), '`  x  `');
  });
});

describe('escape: Markdown table cells', () => {
  for (const input of HOSTILE) {
    it(`${terminalJson(input)} stays in its cell`, () => {
      const rendered = html(`| A | B | C |\n|---|---|---|\n| 1 | ${markdownCodeCell(input)} | 3 |\n`);
      assertInert(rendered, input);
      const cells = [...rendered.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((m) => seen(m[1]));
      assert.deepEqual(cells, ['1', input === '' ? "''" : visibleControls(input).trim(), '3'], rendered);
    });
  }

  it('keeps a legitimate alternation in one cell, as code', () => {
    const rendered = html(`| A | B |\n|---|---|\n| ${markdownCodeCell('api/(json|xml)')} | x |\n`);
    assert.match(rendered, /<td><code>api\/\(json\|xml\)<\/code><\/td>/);
  });
});

describe('escape: Markdown code blocks', () => {
  for (const input of HOSTILE) {
    it(`${terminalJson(input)} stays inside its block`, () => {
      const rendered = html(`${markdownCodeBlock(input, 'php')}\n\nafter`);
      assert.equal([...rendered.matchAll(/<pre>/g)].length, 1, rendered);
      assert.match(rendered, /<\/pre>\s*<p>after<\/p>/);
      assert.doesNotMatch(rendered, RAW_CONTROL);
      assert.doesNotMatch(rendered, /<img\b|<a\b/);
    });
  }
});

describe('escape: Markdown link destinations', () => {
  it('keeps a document link one link to that document, whatever its folder is called', () => {
    const uri = 'file:///tmp/w[x](command:workbench.action.terminal.new?%5B%5D) <img src=x>\u001b\u202e/routes.php';
    const rendered = html(`[line 3](${markdownUrl(uri)}#L3)`);
    const links = [...rendered.matchAll(/<a\b[^>]*href="([^"]*)"/g)].map((m) => m[1]);
    assert.equal(links.length, 1, rendered);
    assert.match(links[0], /^file:\/\/\/tmp\/w%5Bx%5D%28command:/);
    assert.match(links[0], /#L3$/);
    assert.equal(decodeURIComponent(links[0].replace(/#L3$/, '')), decodeURIComponent(uri));
    assert.doesNotMatch(rendered, /<img\b/);
  });
});

describe('escape: plain messages', () => {
  /** VS Code's notifications link `[label](target)`: the pattern of its link parser. */
  const LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/i;

  for (const input of HOSTILE) {
    it(`${terminalJson(input)} forms no link and carries no control`, () => {
      const shown = messageText(input);
      assert.doesNotMatch(`Unknown key '${shown}'`, LINK);
      assert.doesNotMatch(shown, RAW_CONTROL);
      assert.equal(shown.replace(/\u200b/g, ''), visibleControls(input));
    });
  }

  it('breaks a link the message would complete around the fragment', () => {
    assert.doesNotMatch(`[click]${messageText('(command:x)')}`, LINK);
    assert.doesNotMatch(`${messageText('[click]')}(command:x)`, LINK);
  });

  it('cuts long text without splitting a surrogate pair', () => {
    const cut = messageText(`${'a'.repeat(9)}😀tail`, 10);
    assert.equal(cut, `${'a'.repeat(9)}…`);
    assert.equal(messageText('x'.repeat(300)).length, 201);
  });
});

describe('escape: terminal text and JSON', () => {
  for (const input of HOSTILE) {
    it(`${terminalJson(input)} reaches a terminal without a control`, () => {
      assert.doesNotMatch(terminalText(input), /[\u0000-\u001f\u007f-\u009f\u061c\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/);
      for (const space of [undefined, 2]) {
        const json = terminalJson({ value: input, list: [input] }, space);
        assert.doesNotMatch(json, RAW_CONTROL);
        assert.deepEqual(JSON.parse(json), { value: input, list: [input] });
      }
    });
  }

  it('shows the escape character as PHP would write it', () => {
    assert.equal(terminalText('\u001b]0;t\u0007'), '\\x1B]0;t\\x07');
    assert.equal(terminalText('a\u202Eb'), 'a\\u{202E}b');
  });
});

describe('escape: labels rendered with icons (code lens titles)', () => {
  /** VS Code's icon syntax in labels, `$(name)` or `$(name~spin)`, unless the `$` is escaped. */
  const ICON = /(?<!\\)\$\([a-z0-9-]+(?:~[a-z0-9-]*)?\)/i;

  it('shows $(icon) as written, not as an icon', () => {
    const shown = iconLabelText('3 routes $(check) verified $(warning~spin)');
    assert.doesNotMatch(shown, ICON);
    assert.equal(shown, '3 routes \\$(check) verified \\$(warning~spin)');
  });

  for (const input of HOSTILE) {
    it(`${terminalJson(input)} carries no control and no icon`, () => {
      const shown = iconLabelText(`${input} $(alert)`);
      assert.doesNotMatch(shown, RAW_CONTROL);
      assert.doesNotMatch(shown, ICON);
    });
  }
});

describe('escape: HTML text', () => {
  for (const input of HOSTILE) {
    it(`${terminalJson(input)} opens no tag, ends no attribute and starts no entity`, () => {
      const out = htmlText(input);
      assert.doesNotMatch(out, /[<>"']/);
      assert.doesNotMatch(out, /&(?!amp;|lt;|gt;|quot;|#39;)/);
      assert.doesNotMatch(out, RAW_CONTROL);
      // Read back, it is the input with its controls made visible.
      assert.equal(seen(out, false), visibleControls(input));
    });
  }
});
