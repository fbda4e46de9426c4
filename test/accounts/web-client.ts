import type { TestServer } from '../helpers/server';

/**
 * A browser's part in the account pages, over plain HTTP: it keeps cookies, reads the CSRF token
 * from each page's form and never follows redirects (tests look at them).
 */
export interface PageResponse {
  status: number;
  html: string;
  location: string | null;
  setCookies: string[];
}

export class WebClient {
  readonly cookies = new Map<string, string>();

  constructor(private readonly ts: TestServer) {}

  private remember(res: Response): string[] {
    const set = res.headers.getSetCookie();
    for (const line of set) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return set;
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async get(path: string): Promise<PageResponse> {
    const res = await fetch(`${this.ts.url}${path}`, { redirect: 'manual', headers: { cookie: this.cookieHeader() } });
    const setCookies = this.remember(res);
    return { status: res.status, html: await res.text(), location: res.headers.get('location'), setCookies };
  }

  async post(path: string, fields: Record<string, string>, { csrf = true } = {}): Promise<PageResponse> {
    const body = { ...fields };
    if (csrf && this.cookies.has('csrftoken')) body.csrfmiddlewaretoken = this.cookies.get('csrftoken')!;
    const res = await fetch(`${this.ts.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: this.cookieHeader() },
      body: new URLSearchParams(body).toString(),
    });
    const setCookies = this.remember(res);
    return { status: res.status, html: await res.text(), location: res.headers.get('location'), setCookies };
  }
}

/** The form's CSRF field must match the cookie the page set. */
export function csrfFieldOf(html: string): string | null {
  return /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(html)?.[1] ?? null;
}
