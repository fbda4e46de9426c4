import { s3Backend } from './files';
import { uploadSuite } from './upload-suite';

// The same suite with files in an S3 bucket (a real S3-compatible server on loopback).
uploadSuite(s3Backend);
