import { localBackend } from './files';
import { orphanSweepSuite } from './orphan-sweep';

orphanSweepSuite('local', async () => localBackend());
