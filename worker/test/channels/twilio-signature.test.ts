import { describe, expect, it } from 'vitest';
import { computeTwilioSignature, twilioSignedPayload, verifyTwilioRequest, verifyTwilioSignature } from '../../src/channels/twilio/signature';

// Known answers.
// (1) Twilio's "Webhooks security" guide (https://www.twilio.com/docs/usage/webhooks/webhooks-security,
//     "Validating requests"): auth token 12345, this URL and these POST parameters sign to
//     0/KCTR6DLpKmkAf8muzZqo1nDgQ=.
// (2) twilio-node's fixtures (spec/validation.spec.js): same token and URL, Caller/From +14158675309,
//     → RSOYDt4T1cUTdK1PDd93/VVr8B8=, plus its port, credential, array and special-character cases.
const TOKEN = '12345';
const URL_ = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const DOCS_PARAMS = {
  CallSid: 'CA1234567890ABCDE',
  Caller: '+12349013030',
  Digits: '1234',
  From: '+12349013030',
  To: '+18005551212',
};
const DOCS_SIGNATURE = '0/KCTR6DLpKmkAf8muzZqo1nDgQ=';
const NODE_PARAMS = { ...DOCS_PARAMS, Caller: '+14158675309', From: '+14158675309' };
const NODE_SIGNATURE = 'RSOYDt4T1cUTdK1PDd93/VVr8B8=';

describe("Twilio request signatures: Twilio's published example", () => {
  it('builds the documented signed string (URL, then sorted name+value pairs)', () => {
    // Parameters given out of order on purpose: the algorithm sorts them.
    const { To, CallSid, Digits, From, Caller } = DOCS_PARAMS;
    expect(twilioSignedPayload(URL_, { To, CallSid, Digits, From, Caller })).toBe(
      'https://mycompany.com/myapp.php?foo=1&bar=2CallSidCA1234567890ABCDECaller+12349013030Digits1234From+12349013030To+18005551212',
    );
  });

  it('computes the signature from the docs exactly', async () => {
    expect(await computeTwilioSignature(TOKEN, URL_, DOCS_PARAMS)).toBe(DOCS_SIGNATURE);
  });

  it('verifies the docs example, from a record and from a parsed form body', async () => {
    expect(await verifyTwilioSignature(TOKEN, URL_, DOCS_PARAMS, DOCS_SIGNATURE)).toBe(true);
    const form = new URLSearchParams('To=%2B18005551212&CallSid=CA1234567890ABCDE&Digits=1234&From=%2B12349013030&Caller=%2B12349013030');
    expect(await verifyTwilioSignature(TOKEN, URL_, form, DOCS_SIGNATURE)).toBe(true);
  });

  it.each([
    ['a tampered parameter', TOKEN, URL_, { ...DOCS_PARAMS, Digits: '9999' }, DOCS_SIGNATURE],
    ['an added parameter', TOKEN, URL_, { ...DOCS_PARAMS, Extra: '1' }, DOCS_SIGNATURE],
    ['a removed parameter', TOKEN, URL_, { CallSid: DOCS_PARAMS.CallSid, Caller: DOCS_PARAMS.Caller }, DOCS_SIGNATURE],
    ['another query string', TOKEN, 'https://mycompany.com/myapp.php?foo=1&bar=3', DOCS_PARAMS, DOCS_SIGNATURE],
    ['another host', TOKEN, 'https://evil.example/myapp.php?foo=1&bar=2', DOCS_PARAMS, DOCS_SIGNATURE],
    ['http instead of https', TOKEN, 'http://mycompany.com/myapp.php?foo=1&bar=2', DOCS_PARAMS, DOCS_SIGNATURE],
    ['another auth token', '54321', URL_, DOCS_PARAMS, DOCS_SIGNATURE],
    ['an empty auth token', '', URL_, DOCS_PARAMS, DOCS_SIGNATURE],
    ['a truncated signature', TOKEN, URL_, DOCS_PARAMS, DOCS_SIGNATURE.slice(0, -2)],
    ['a signature with one bit flipped', TOKEN, URL_, DOCS_PARAMS, '1/KCTR6DLpKmkAf8muzZqo1nDgQ='],
    ['a non-base64 signature', TOKEN, URL_, DOCS_PARAMS, 'WRONG_SIGNATURE'],
    ['no signature', TOKEN, URL_, DOCS_PARAMS, null],
    ['an empty signature', TOKEN, URL_, DOCS_PARAMS, ''],
  ])('refuses %s', async (_name, token, url, params, signature) => {
    expect(await verifyTwilioSignature(token, url, params, signature)).toBe(false);
  });
});

describe("Twilio request signatures: twilio-node's fixtures", () => {
  it('reproduces the default fixture', async () => {
    expect(await computeTwilioSignature(TOKEN, URL_, NODE_PARAMS)).toBe(NODE_SIGNATURE);
    expect(await verifyTwilioSignature(TOKEN, URL_, NODE_PARAMS, NODE_SIGNATURE)).toBe(true);
  });

  it.each([
    ['an https URL with a port (signed without it)', 'https://mycompany.com:1234/myapp.php?foo=1&bar=2', NODE_SIGNATURE],
    ['an http URL with a port', 'http://mycompany.com:1234/myapp.php?foo=1&bar=2', 'Zmvh+3yNM1Phv2jhDCwEM3q5ebU='],
    ['an https URL signed with :443 added', URL_, 'kvajT1Ptam85bY51eRf/AJRuM3w='],
    ['an http URL signed with :80 added', 'http://mycompany.com/myapp.php?foo=1&bar=2', '0ZXoZLH/DfblKGATFgpif+LLRf4='],
    ['a URL with credentials', 'https://user:pass@mycompany.com/myapp.php?foo=1&bar=2', 'CukzLTc1tT5dXEDIHm/tKBanW10='],
    ['a URL with just a username', 'https://user@mycompany.com/myapp.php?foo=1&bar=2', '2YRLlVAflCqxaNicjMpJcSTgzSs='],
    ['a URL with credentials signed with :443', 'https://user:pass@mycompany.com/myapp.php?foo=1&bar=2', 'ZQFR1PTIZXF2MXB8ZnKCvnnA+rI='],
    ['a URL with special characters', `${URL_}&Body=It's+amazing`, 'dsq4Ehbj6cs+KdTkpF5sSSplOWw='],
  ])('verifies %s', async (_name, url, signature) => {
    expect(await verifyTwilioSignature(TOKEN, url, NODE_PARAMS, signature)).toBe(true);
    expect(await verifyTwilioSignature(TOKEN, url, { ...NODE_PARAMS, Digits: '1235' }, signature)).toBe(false);
  });

  it('signs repeated parameters as each distinct value, values sorted, whatever their order', async () => {
    const signature = '83O6e2vORAoJHUNzJjDWN1jz+BA=';
    expect(await computeTwilioSignature(TOKEN, URL_, { 'MessagingBinding.Address': ['+1325xxxxxxx', '+1415xxxxxxx'] })).toBe(signature);
    expect(await verifyTwilioSignature(TOKEN, URL_, { 'MessagingBinding.Address': ['+1415xxxxxxx', '+1325xxxxxxx'] }, signature)).toBe(true);
    const form = new URLSearchParams('MessagingBinding.Address=%2B1415xxxxxxx&MessagingBinding.Address=%2B1325xxxxxxx');
    expect(await verifyTwilioSignature(TOKEN, URL_, form, signature)).toBe(true);
    expect(
      await verifyTwilioSignature(TOKEN, URL_, { Sid: 'CA123', SidAccount: 'AC123', Digits: ['5678', '1234', '1234'] }, 'IK+Dwps556ElfBT0I3Rgjkr1wJU='),
    ).toBe(true);
  });
});

describe('verifying a status callback request', () => {
  const callbackUrl = 'https://afterword.example/api/notify/twilio/status';
  const params = { MessageSid: 'SM0123456789abcdef0123456789abcdef', MessageStatus: 'delivered', To: '+15005550006' };

  async function callback(body: string, signature: string | null, contentType = 'application/x-www-form-urlencoded') {
    const headers: Record<string, string> = { 'content-type': contentType };
    if (signature !== null) headers['x-twilio-signature'] = signature;
    return new Request(callbackUrl, { method: 'POST', headers, body });
  }

  it('accepts a signed form POST, returns its parameters and leaves the body readable', async () => {
    const signature = await computeTwilioSignature('secret-token', callbackUrl, params);
    const request = await callback(new URLSearchParams(params).toString(), signature);
    const verified = await verifyTwilioRequest(request, 'secret-token');
    expect(verified?.get('MessageStatus')).toBe('delivered');
    expect(await request.text()).toContain('MessageStatus=delivered');
  });

  it('checks against the public URL when given one (the Worker may see another host)', async () => {
    const signature = await computeTwilioSignature('secret-token', callbackUrl, params);
    const request = new Request('http://internal:8787/api/notify/twilio/status', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
      body: new URLSearchParams(params).toString(),
    });
    expect(await verifyTwilioRequest(request, 'secret-token')).toBeNull();
    expect(await verifyTwilioRequest(request, 'secret-token', callbackUrl)).not.toBeNull();
  });

  it('refuses a tampered status, a missing header and a non-form body', async () => {
    const signature = await computeTwilioSignature('secret-token', callbackUrl, params);
    const tampered = new URLSearchParams({ ...params, MessageStatus: 'failed' }).toString();
    expect(await verifyTwilioRequest(await callback(tampered, signature), 'secret-token')).toBeNull();
    expect(await verifyTwilioRequest(await callback(new URLSearchParams(params).toString(), null), 'secret-token')).toBeNull();
    expect(await verifyTwilioRequest(await callback(JSON.stringify(params), signature, 'application/json'), 'secret-token')).toBeNull();
  });
});
