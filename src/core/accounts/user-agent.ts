/**
 * The browser and operating system a User-Agent names, for the new-login email. Only the common
 * ones are told apart, in the order that keeps lookalikes apart (Edge and Opera also say "Chrome",
 * Chrome also says "Safari"). Null when none matches.
 */
export function deviceBrowser(userAgent: string): string | null {
  const ua = userAgent.toLowerCase();
  if (ua.includes('zulip')) return 'Zulip';
  if (ua.includes('edg/') || ua.includes('edge/') || ua.includes('edga/') || ua.includes('edgios/')) return 'Edge';
  if (ua.includes('opr/') || ua.includes('opera')) return 'Opera';
  if ((ua.includes('chrome/') || ua.includes('crios/')) && !ua.includes('chromium')) return 'Chrome';
  if ((ua.includes('firefox/') || ua.includes('fxios/')) && !ua.includes('seamonkey')) return 'Firefox';
  if (ua.includes('chromium')) return 'Chromium';
  if (ua.includes('safari/')) return 'Safari';
  if (ua.includes('msie') || ua.includes('trident/')) return 'Internet Explorer';
  return null;
}

export function deviceOs(userAgent: string): string | null {
  const ua = userAgent.toLowerCase();
  if (ua.includes('windows')) return 'Windows';
  if (ua.includes('iphone') || ua.includes('ipad') || ua.includes('ipod') || ua.includes(' ios')) return 'iOS';
  if (ua.includes('android')) return 'Android';
  if (ua.includes('mac os x') || ua.includes('macintosh') || ua.includes('macos')) return 'macOS';
  if (ua.includes('cros')) return 'ChromeOS';
  if (ua.includes('linux')) return 'Linux';
  return null;
}
