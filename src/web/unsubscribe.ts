import { Request, Response, Router } from 'express';
import type { AppDeps } from '../core/deps';
import { unsubscribe } from '../core/notifications/unsubscribe';

/**
 * The unsubscribe links of notification emails. As Zulip's, opening the link turns the setting off
 * (POST too, for mail clients' one-click unsubscribe).
 */
const PAGE = (title: string, text: string) =>
  `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto"><h1>${title}</h1><p>${text}</p></body></html>\n`;

export function unsubscribeRouter(deps: AppDeps): Router {
  const router = Router();
  const handle = async (req: Request, res: Response) => {
    const ok = await unsubscribe(deps, String(req.params.type), String(req.params.token));
    res.type('html');
    if (ok && req.params.type === 'welcome') {
      // No setting to turn back on: the remaining onboarding emails are gone.
      res.send(PAGE('Unsubscribed', 'You will receive no more onboarding emails.'));
    } else if (ok) {
      res.send(PAGE('Unsubscribed', 'You will no longer receive these emails. You can turn them back on in your notification settings.'));
    } else {
      res.status(404).send(PAGE('Unknown link', 'This unsubscribe link is not valid.'));
    }
  };
  router.get('/accounts/unsubscribe/:type/:token', handle);
  router.post('/accounts/unsubscribe/:type/:token', handle);
  return router;
}
