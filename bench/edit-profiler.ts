import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

/**
 * A CPU profile of the edits alone (the open dwarfs them in a whole-process `--cpu-prof`):
 * `CPU_PROFILE=/tmp/edits node out/bench/profile.js 10000` writes /tmp/edits-10000.cpuprofile.
 */
export class EditProfiler {
  private session: Session | undefined;

  constructor(private readonly pathPrefix: string | undefined, private readonly size: number) {}

  start(): void {
    if (!this.pathPrefix) return;
    this.session = new Session();
    this.session.connect();
    this.session.post('Profiler.enable');
    this.session.post('Profiler.start');
  }

  stop(): void {
    const session = this.session;
    if (!session) return;
    session.post('Profiler.stop', (err, result) => {
      if (!err) writeFileSync(`${this.pathPrefix}-${this.size}.cpuprofile`, JSON.stringify(result.profile));
      session.disconnect();
    });
    this.session = undefined;
  }
}
