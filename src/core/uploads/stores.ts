import path from 'node:path';
import type { Config } from '../../config';
import { FileStore, LocalFileStore } from './storage';

const stores = new Map<string, FileStore>();

/**
 * The store for a configuration: the S3 bucket when one is configured, else DATA_DIR/uploads.
 * One per configuration, so every request shares it (and the S3 client's connections).
 */
export function fileStore(config: Pick<Config, 'dataDir' | 's3'>): FileStore {
  const id = config.s3 ? JSON.stringify([config.s3, config.dataDir]) : path.join(config.dataDir, 'uploads');
  let store = stores.get(id);
  if (!store) {
    if (config.s3) {
      // Loaded only when used: the AWS SDK is large and most servers keep files on disk.
      const { S3FileStore } = require('./s3-store') as typeof import('./s3-store');
      store = new S3FileStore(config.s3, path.join(config.dataDir, 'upload-staging'));
    } else {
      store = new LocalFileStore(id);
    }
    stores.set(id, store);
  }
  return store;
}
