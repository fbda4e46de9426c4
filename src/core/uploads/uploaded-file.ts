/** One file of a multipart request body, as the REST face reads it and actions take it. */
export interface UploadedFile {
  field: string;
  filename: string;
  mimeType: string;
  data: Buffer;
}
