/** The CSRF token the server wrote into the page; every request made with the session cookie sends it. */
export function csrfToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
}

export const CSRF_HEADER = 'X-CSRFToken';
