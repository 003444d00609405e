import * as path from 'node:path';
import { createControllerCatalog, type ControllerCatalog } from '../../../shared/workspace/controller-catalog';
import { DiskTree } from './disk-tree';
import { readTextFile } from './route-file';

/** The controllers of an application folder on disk, each file read when first asked about (unreadable ones count as absent). */
export function controllerCatalogOnDisk(appDir: string, tree: DiskTree = new DiskTree(appDir)): ControllerCatalog {
  return createControllerCatalog(tree, (file) => {
    try {
      return readTextFile(path.join(appDir, file));
    } catch {
      return undefined;
    }
  });
}
