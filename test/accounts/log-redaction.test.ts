import { describeUrl } from '../../src/failure-log';

test('failure logs name the page of a confirmation link, never its key', () => {
  expect(describeUrl('/accounts/password/reset/abcdefghijklmnopqrstuvwx/')).toBe('/accounts/password/reset/…/');
  expect(describeUrl('/accounts/confirm_new_email/abcdefghijklmnopqrstuvwx/')).toBe('/accounts/confirm_new_email/…/');
  expect(describeUrl('/join/abcdefghijklmnopqrstuvwx/')).toBe('/join/…/');
  expect(describeUrl('/login/?mobile_flow_otp=' + 'a'.repeat(64))).toBe('/login/?…');
  expect(describeUrl('/accounts/password/reset/')).toBe('/accounts/password/reset/');
});
