import { localBackend } from './files';
import { uploadSuite } from './upload-suite';

uploadSuite(async () => localBackend());
