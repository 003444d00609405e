import packageJson from '../../../package.json';

/** The package's version, from package.json (a bundler inlines it). */
export const VERSION: string = packageJson.version;
