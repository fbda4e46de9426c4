import { type Request, type Response, Router } from 'express';

/**
 * The few images the server's own answers name: the placeholder a message shows while its image
 * preview is being made, and the organization's default logo (`realm_logo_url` without an upload).
 * Zulip's clients fetch them from these paths.
 */
const LOADER = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40" role="img" aria-label="Loading">
<circle cx="20" cy="20" r="16" fill="none" stroke="#000" stroke-opacity=".2" stroke-width="4"/>
<path d="M20 4a16 16 0 0 1 16 16" fill="none" stroke="#000" stroke-width="4" stroke-linecap="round">
<animateTransform attributeName="transform" type="rotate" from="0 20 20" to="360 20 20" dur="0.9s" repeatCount="indefinite"/>
</path></svg>
`;

const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40" role="img" aria-label="Organization logo">
<rect x="2" y="4" width="32" height="26" rx="7" fill="#2b6cd6"/><path d="M10 30l-4 8 11-8z" fill="#2b6cd6"/>
<path d="M10 13h16M10 20h11" stroke="#fff" stroke-width="3" stroke-linecap="round"/>
<text x="44" y="27" font-family="system-ui, sans-serif" font-size="20" font-weight="600" fill="#2b6cd6">Parley</text></svg>
`;

const IMAGES: Record<string, string> = {
  '/static/images/loading/loader-black.svg': LOADER,
  '/static/images/logo/zulip-org-logo.svg': LOGO,
};

export function staticImagesRouter(): Router {
  const router = Router();
  for (const [route, svg] of Object.entries(IMAGES)) {
    router.get(route, (_req: Request, res: Response) => {
      res
        .set('cache-control', 'public, max-age=86400')
        .set('x-content-type-options', 'nosniff')
        // An SVG opened on its own runs nothing.
        .set('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .type('image/svg+xml')
        .send(svg);
    });
  }
  return router;
}
