/** The small server-rendered pages (sign-up, login, password reset, email confirmation). */
export const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<title>${escape(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#222}
label{display:block;margin:1rem 0 .25rem}input{width:100%;padding:.5rem;box-sizing:border-box}
button,.button{display:inline-block;margin-top:1.5rem;padding:.6rem 1.2rem}.error{color:#b00020}
</style></head>
<body><main>${body}</main></body></html>
`;
}

export const errorParagraph = (error?: string) => (error ? `<p class="error" role="alert">${escape(error)}</p>` : '');
