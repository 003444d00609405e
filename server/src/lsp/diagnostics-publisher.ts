import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver';

/**
 * The one sender of diagnostics. A document's publications go out per version and never an
 * older version after a newer one: an analysis that finishes late (or a check that raced an edit)
 * cannot replace what the client shows of a newer text.
 */
export class DiagnosticsPublisher {
  private readonly versions = new Map<string, number>();
  /** The version whose early findings were published, by document (see publishEarly). */
  private readonly earlyVersions = new Map<string, number>();

  constructor(private readonly send: (params: PublishDiagnosticsParams) => void) {}

  /** Publishes the document's diagnostics for `version` (none: a file no editor has open); false when a newer version was published. */
  publish(uri: string, version: number | undefined, diagnostics: Diagnostic[]): boolean {
    if (version !== undefined) {
      const last = this.versions.get(uri);
      if (last !== undefined && version < last) return false;
      this.versions.set(uri, version);
    }
    this.send({ uri, ...(version !== undefined ? { version } : {}), diagnostics });
    return true;
  }

  /**
   * Publishes what the quick checks of an opening analysis found, once per version: an analysis
   * started again for the same version (the workspace index became ready meanwhile) would
   * otherwise show the same findings twice. False when it did not publish.
   */
  publishEarly(uri: string, version: number, diagnostics: Diagnostic[]): boolean {
    if (this.earlyVersions.get(uri) === version) return false;
    if (!this.publish(uri, version, diagnostics)) return false;
    this.earlyVersions.set(uri, version);
    return true;
  }

  /** The version last published for the document, if any. */
  publishedVersion(uri: string): number | undefined {
    return this.versions.get(uri);
  }

  /** The document closed: its versions start again if it is opened again. */
  forget(uri: string): void {
    this.versions.delete(uri);
    this.earlyVersions.delete(uri);
  }
}
