import type { CodeIgniterVersion } from '../../../app/codeigniter-version';
import type { Check } from '../core/context';
import { finding } from '../core/types';

/**
 * `codeigniter-2` at the top of a route file of a CodeIgniter 2 application: what is read
 * otherwise than under CodeIgniter 3, and what is therefore not checked.
 */
export function codeIgniter2Notice(ci: CodeIgniterVersion): Check {
  return function codeIgniterVersion({ text }) {
    const start = text.startsWith('<?php') ? 0 : Math.max(0, text.indexOf('<?php'));
    return [
      finding('codeigniter-2', { start, end: start + 5 }, `This application runs CodeIgniter ${ci.version} (${ci.source}): its router reads (:any) across segments and tries literal keys first, and routes are checked so; controllers are not checked.`, {
        details: "CodeIgniter 2 looks controllers up by the URI's own case (controllers/home.php) where CodeIgniter 3 wants Home.php, and its HMVC routers differ as well: missing-controller is not reported. ci-routes match and Test URL answer as CodeIgniter 3's router does.",
      }),
    ];
  };
}
