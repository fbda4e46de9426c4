import { CSRF_HEADER, csrfToken } from '../../api/csrf';

/**
 * Adds a custom emoji: POST /json/realm/emoji/<name> with the session (no GraphQL mutation carries an
 * image file). Resolves to the server's error message, or null when added.
 */
export async function uploadEmoji(name: string, file: File): Promise<string | null> {
  const form = new FormData();
  form.append('file', file, file.name);
  try {
    const response = await fetch(`/json/realm/emoji/${encodeURIComponent(name)}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { [CSRF_HEADER]: csrfToken() },
      body: form,
    });
    const body = (await response.json().catch(() => null)) as { result?: string; msg?: string } | null;
    if (response.ok && body?.result === 'success') return null;
    return body?.msg || `The upload failed (HTTP ${response.status}).`;
  } catch {
    return 'The upload failed: the server could not be reached.';
  }
}
