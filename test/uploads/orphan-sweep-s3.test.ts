import { s3Backend } from './files';
import { orphanSweepSuite } from './orphan-sweep';

// The same sweep over a bucket of a real S3-compatible server on loopback.
orphanSweepSuite('s3', s3Backend);
