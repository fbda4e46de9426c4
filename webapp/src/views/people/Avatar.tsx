/** Whether an image may load under the page's policy (`img-src 'self'`): gravatar and the like may not. */
export function isLocalUrl(url: string | null | undefined): url is string {
  if (!url) return false;
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

/** A picture for a person or the organization; its initial when the picture is elsewhere. */
export function Avatar({ url, name, size }: { url: string | null | undefined; name: string; size: 'small' | 'large' }) {
  if (isLocalUrl(url)) return <img className={`avatar ${size}`} src={url} alt="" />;
  return (
    <span className={`avatar ${size} initial`} aria-hidden="true">
      {name.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}
