import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { charsBeyondDefault, uriCharsBeyondOf } from '../../shared/app/uri-chars';
import { diskProjectFiles } from '../../server/src/host/disk-project-files';

describe("permitted_uri_chars: characters beyond CodeIgniter's default", () => {
  it('reads the value as the character class CI_URI::_filter_uri() puts it in', () => {
    const within = ['a-z 0-9~%.:_\\-', 'a-z0-9', 'A-Za-z0-9_\\-', '-a-z', 'a-z 0-9~%.:_-'];
    for (const chars of within) assert.equal(charsBeyondDefault(chars), undefined, chars);
    const beyond: [string, string][] = [
      ['a-z 0-9~%.:_\\-\\(\\)', "permits '('"],
      ['a-z 0-9~%.:_\\-?', "permits '?'"],
      ['a-z 0-9~%.:_+\\-', "permits '+'"],
      ['a-z 0-9~%.:_\\-=&', "permits '='"],
      ['a-zé', "permits 'é'"],
      ['', 'is empty: CodeIgniter then filters no character'],
      ['^a-z', "starts with '^': it permits every character it does not list"],
      ['\\w\\-', "holds '\\w', not read here"],
      ['a-z[:punct:]', "holds '[', not read here"],
      // `\-` is a dash, never a range: ',\--' would be a range from ',' to '-', but is ',', '-' and '-'.
      [',\\--', "permits ','"],
      ['!-~', "permits '!'"],
    ];
    for (const [chars, why] of beyond) assert.equal(charsBeyondDefault(chars), why, chars);
  });

  it("says where the application's config.php permits more, or leaves it unset", () => {
    const app = fs.mkdtempSync(path.join(os.tmpdir(), 'uri-chars-'));
    try {
      fs.mkdirSync(path.join(app, 'config', 'production'), { recursive: true });
      assert.equal(uriCharsBeyondOf(app, undefined, diskProjectFiles()), undefined, 'no config.php');
      fs.writeFileSync(path.join(app, 'config', 'production', 'config.php'), "<?php\n$config['index_page'] = '';\n");
      assert.equal(uriCharsBeyondOf(app, 'production', diskProjectFiles()), undefined, "an environment's config.php alone: the application's own is not known");
      fs.writeFileSync(path.join(app, 'config', 'config.php'), "<?php\n$config['index_page'] = '';\n");
      assert.equal(uriCharsBeyondOf(app, undefined, diskProjectFiles()), 'config/config.php does not set permitted_uri_chars, so CodeIgniter filters no character');
      fs.writeFileSync(path.join(app, 'config', 'config.php'), "<?php\n$config['permitted_uri_chars'] = 'a-z 0-9~%.:_\\-';\n");
      assert.equal(uriCharsBeyondOf(app, 'production', diskProjectFiles()), undefined);
      fs.writeFileSync(path.join(app, 'config', 'production', 'config.php'), "<?php\n$config['permitted_uri_chars'] = 'a-z 0-9~%.:_+\\-';\n");
      assert.equal(uriCharsBeyondOf(app, 'production', diskProjectFiles()), "config/production/config.php sets permitted_uri_chars to 'a-z 0-9~%.:_+\\-', which permits '+'");
      assert.equal(uriCharsBeyondOf(app, 'development', diskProjectFiles()), undefined);
      fs.writeFileSync(path.join(app, 'config', 'config.php'), "<?php\n$config['permitted_uri_chars'] = PERMITTED;\n");
      assert.equal(uriCharsBeyondOf(app, undefined, diskProjectFiles()), 'config/config.php sets permitted_uri_chars otherwise than to a literal');
    } finally {
      fs.rmSync(app, { recursive: true, force: true });
    }
  });
});
