/**
 * Why a message may be reported, with the label the report shows (Zulip's REPORT_MESSAGE_REASONS),
 * and the limit on the reporter's explanation.
 */
export const REPORT_REASONS = {
  spam: 'Spam',
  harassment: 'Harassment',
  inappropriate: 'Inappropriate content',
  norms: 'Violates community norms',
  other: 'Other reason',
} as const;

export type ReportType = keyof typeof REPORT_REASONS;
export const REPORT_TYPES = Object.keys(REPORT_REASONS) as ReportType[];

export const MAX_REPORT_DESCRIPTION_LENGTH = 1000;
