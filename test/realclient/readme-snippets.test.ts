import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readmeSnippet, readmeSnippets, SERVER_COMMAND } from '../helpers/readme-snippets';

type TomlValue = string | TomlValue[] | { [k: string]: TomlValue };
type TomlTable = { [k: string]: TomlValue };

/**
 * Parses the part of TOML that README's Helix snippet may use, and refuses the rest: comments,
 * `[a.b]` tables, `[[a]]` arrays of tables, `key = "string"` and `key = ["string", ...]`.
 * (Helix itself is not in Debian, so this is the check its snippet gets.)
 */
function parseTomlSubset(text: string): TomlTable {
  const root: TomlTable = {};
  let current = root;
  const key = String.raw`[A-Za-z0-9_-]+`;
  const str = String.raw`"(?:[^"\\\n]|\\["\\nt])*"`;
  const unquote = (s: string) => JSON.parse(s) as string;
  const descend = (table: TomlTable, keys: string[]): TomlTable => {
    let t = table;
    for (const k of keys) {
      const next = t[k] ?? (t[k] = {});
      if (typeof next !== 'object' || Array.isArray(next)) throw new Error(`'${k}' is not a table`);
      t = next;
    }
    return t;
  };
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\s+#[^"]*$/, '').trim();
    if (line === '' || line.startsWith('#')) return;
    let m: RegExpExecArray | null;
    if ((m = new RegExp(String.raw`^\[\[(${key})\]\]$`).exec(line))) {
      const list = (root[m[1]] ??= []);
      if (!Array.isArray(list)) throw new Error(`line ${i + 1}: '${m[1]}' is not an array of tables`);
      current = {};
      list.push(current);
    } else if ((m = new RegExp(String.raw`^\[(${key}(?:\.${key})*)\]$`).exec(line))) {
      current = descend(root, m[1].split('.'));
    } else if ((m = new RegExp(String.raw`^(${key})\s*=\s*(${str})$`).exec(line))) {
      if (m[1] in current) throw new Error(`line ${i + 1}: '${m[1]}' defined twice`);
      current[m[1]] = unquote(m[2]);
    } else if ((m = new RegExp(String.raw`^(${key})\s*=\s*\[\s*((?:${str}\s*,\s*)*(?:${str})?)\s*\]$`).exec(line))) {
      if (m[1] in current) throw new Error(`line ${i + 1}: '${m[1]}' defined twice`);
      current[m[1]] = [...m[2].matchAll(new RegExp(str, 'g'))].map((s) => unquote(s[0]));
    } else {
      throw new Error(`line ${i + 1}: not in the TOML this check reads: ${raw}`);
    }
  });
  return root;
}

describe("README.md's editor snippets", () => {
  it('are the set-ups the README documents, each starting the server as `ci-routes-language-server --stdio`', () => {
    const all = readmeSnippets();
    assert.deepStrictEqual(
      all.map((s) => `${s.name}:${s.lang}`),
      ['nvim:lua', 'nvim-0.11:lua', 'nvim-lspconfig:lua', 'helix:toml', 'eglot:elisp', 'lsp-mode:elisp', 'sublime:json'],
    );
    for (const s of all) {
      assert.match(s.text, new RegExp(`['"]${SERVER_COMMAND}['"]`), `README.md:${s.line} ('${s.name}') names the command`);
      assert.match(s.text, /['"]--stdio['"]/, `README.md:${s.line} ('${s.name}') passes --stdio`);
      assert.doesNotMatch(s.text, /\/path\/to|ci-routes-language-server\.js/, `README.md:${s.line} ('${s.name}') is pasteable as it is`);
    }
  });

  it("Helix (not run: not in Debian): the TOML parses, defines the server and lists it beside Helix's PHP server", () => {
    const snippet = readmeSnippet('helix');
    const toml = parseTomlSubset(snippet.text);
    assert.deepStrictEqual(toml['language-server'], { 'ci-routes': { command: SERVER_COMMAND, args: ['--stdio'] } });
    const languages = toml.language as TomlTable[];
    assert.equal(languages.length, 1);
    assert.equal(languages[0].name, 'php');
    // `language-servers` replaces Helix's list: the PHP server Helix starts by default must stay in it.
    assert.deepStrictEqual(languages[0]['language-servers'], ['intelephense', 'ci-routes']);
    // A real TOML parser agrees, where one is at hand (Python 3.11+).
    const py = spawnSync('python3', ['-c', 'import json, sys, tomllib; print(json.dumps(tomllib.loads(sys.stdin.read())))'], { input: snippet.text, encoding: 'utf8' });
    if (py.status === 0) assert.deepStrictEqual(JSON.parse(py.stdout), toml);
  });

  it('Sublime Text (not run): the settings parse as JSON and declare one client for PHP', () => {
    const settings = JSON.parse(readmeSnippet('sublime').text) as { clients: Record<string, { enabled: boolean; command: string[]; selector: string }> };
    assert.deepStrictEqual(Object.keys(settings.clients), ['ci-routes']);
    assert.deepStrictEqual(settings.clients['ci-routes'], { enabled: true, command: [SERVER_COMMAND, '--stdio'], selector: 'embedding.php' });
  });
});
