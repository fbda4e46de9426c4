import { useState } from 'react';
import { getCompose, setCompose } from '../../state/compose-state';
import { uploadFile, uploadLink } from './upload';

export interface UploadItem {
  id: number;
  name: string;
  progress: number;
  error: string | null;
}

let nextId = 0;

function replaceInContent(from: string, to: string): void {
  const { content } = getCompose();
  if (content.includes(from)) setCompose({ content: content.replace(from, to) });
  else if (to) setCompose({ content: `${content}${content && !content.endsWith('\n') ? '\n' : ''}${to}` });
}

/**
 * Uploads started from the button, a drop or a paste: each puts a placeholder at the cursor, shows
 * its progress, and becomes a `[name](url)` link when done (or goes, leaving the server's error).
 */
export function useUploads(textarea: React.RefObject<HTMLTextAreaElement>) {
  const [uploads, setUploads] = useState<UploadItem[]>([]);
  const patch = (id: number, change: Partial<UploadItem>) => setUploads((list) => list.map((u) => (u.id === id ? { ...u, ...change } : u)));

  const start = (files: File[]) => {
    for (const file of files) {
      nextId += 1;
      const id = nextId;
      const placeholder = `[Uploading ${file.name.replace(/[[\]]/g, '')}…]()`;
      const { content } = getCompose();
      const caret = textarea.current && document.activeElement === textarea.current ? textarea.current.selectionStart : content.length;
      const before = content.slice(0, caret);
      const gap = before && !/\s$/.test(before) ? ' ' : '';
      setCompose({ content: `${before}${gap}${placeholder} ${content.slice(caret)}` });
      setUploads((list) => [...list, { id, name: file.name, progress: 0, error: null }]);
      uploadFile(file, (progress) => patch(id, { progress }))
        .then(({ url, filename }) => {
          replaceInContent(placeholder, uploadLink(filename, url));
          setUploads((list) => list.filter((u) => u.id !== id));
        })
        .catch((error: Error) => {
          replaceInContent(`${placeholder} `, '');
          replaceInContent(placeholder, '');
          patch(id, { error: error.message });
        });
    }
  };
  const dismiss = (id: number) => setUploads((list) => list.filter((u) => u.id !== id));
  return { uploads, start, dismiss };
}
