/**
 * Which router serves the application: `ci` CodeIgniter 3's own CI_Router, `bonfire` Bonfire's
 * BF_Router with its Modules library, `mx` Modular Extensions' (wiredesignz) MX_Router.
 */
export type RouterFlavour = 'ci' | 'bonfire' | 'mx';

/** A module location: where modules live (from the application root) and the offset to it from `application/controllers/`. */
export interface ModuleLocation {
  readonly folder: string;
  readonly offset: string;
}

/** `Modules::$locations` as each flavour has it by default, in search order. */
export function moduleLocations(flavour: RouterFlavour): readonly ModuleLocation[] {
  switch (flavour) {
    case 'bonfire':
      return BONFIRE_LOCATIONS;
    case 'mx':
      return MX_LOCATIONS;
    case 'ci':
      return [];
  }
}

const BONFIRE_LOCATIONS: readonly ModuleLocation[] = [
  { folder: 'application/modules/', offset: '../../application/modules/' },
  { folder: 'bonfire/modules/', offset: '../../bonfire/modules/' },
];

const MX_LOCATIONS: readonly ModuleLocation[] = [{ folder: 'application/modules/', offset: '../modules/' }];

/** The folders whose `controllers/` the application-level look-up searches, in order (APPPATH, then Bonfire's BFPATH). */
export function controllerRoots(flavour: RouterFlavour): readonly string[] {
  return flavour === 'bonfire' ? ['application/', 'bonfire/'] : ['application/'];
}
