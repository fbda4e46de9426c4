/** A `zuliprc` for Zulip's API clients and tools, built here and saved as a download. */
export function zuliprcText(email: string, key: string): string {
  return `[api]\nemail=${email}\nkey=${key}\nsite=${window.location.origin}\n`;
}

export function downloadZuliprc(email: string, key: string, filename = 'zuliprc'): void {
  const url = URL.createObjectURL(new Blob([zuliprcText(email, key)], { type: 'application/octet-stream' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
