import * as path from 'node:path';
import type { AppTree } from '../../../shared/router/app-tree';
import { createControllerCatalog, type ControllerCatalog } from '../../../shared/workspace/controller-catalog';
import { AppRoot } from './app-root';
import { DiskTree } from './disk-tree';
import { readTextFile } from './route-file';

/**
 * The controllers of an application folder on disk, each file read when first asked about
 * (unreadable ones count as absent); `tree`, the folder's tree when the caller has one already.
 * Controllers beside the folder (Bonfire's `bonfire/`) are `../bonfire/…` from it.
 */
export function controllerCatalogOnDisk(appDir: string, tree: AppTree = new DiskTree(appDir)): ControllerCatalog {
  return createControllerCatalog(
    tree,
    (file) => {
      try {
        return readTextFile(path.join(appDir, file));
      } catch {
        return undefined;
      }
    },
    new AppRoot(appDir).tree,
  );
}
