/*
 * The few calls tRPC does not carry (binary uploads and downloads, the health probe) go through here:
 * the session's bearer header, and a non-2xx answer thrown as an HttpError that readApiError reads.
 */
import { httpErrorFrom } from './api-error';
import { getToken } from './session';

export function authHeaders(): Record<string, string> {
  const token = getToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** fetch with the bearer header; resolves only with an ok response, else throws the HttpError. */
export async function restFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, { ...init, headers: { ...authHeaders(), ...(init.headers as Record<string, string> | undefined) } });
  if (!res.ok) throw await httpErrorFrom(res);
  return res;
}
