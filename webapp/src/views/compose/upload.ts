import { CSRF_HEADER, csrfToken } from '../../api/csrf';

/**
 * One file to POST /json/user_uploads with the session cookie, through XMLHttpRequest for its upload
 * progress (fetch reports none). Rejects with the server's own message (too big, over the quota).
 */
export function uploadFile(file: File, onProgress: (fraction: number) => void): Promise<{ url: string; filename: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/json/user_uploads');
    xhr.setRequestHeader(CSRF_HEADER, csrfToken());
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      const body = xhr.response as { result?: string; msg?: string; url?: string; uri?: string; filename?: string } | null;
      if (xhr.status >= 200 && xhr.status < 300 && body?.result === 'success' && (body.url || body.uri)) {
        resolve({ url: (body.url ?? body.uri)!, filename: body.filename ?? file.name });
      } else if (xhr.status === 413) {
        reject(new Error(body?.msg || 'The file is too big.'));
      } else {
        reject(new Error(body?.msg || `The upload failed (HTTP ${xhr.status}).`));
      }
    };
    xhr.onerror = () => reject(new Error('The upload failed: the server could not be reached.'));
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

/** The Markdown link an upload inserts; brackets in the name would end the link early. */
export function uploadLink(name: string, url: string): string {
  return `[${name.replace(/[[\]]/g, '')}](${url})`;
}
