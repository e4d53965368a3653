// HTTP to the Spielcenter server: JSON both ways, the CSRF token on every state-changing request,
// and errors turned into exceptions that carry the server's code and message.

let csrfToken = null;

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function request(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET" && csrfToken) headers["X-CSRF-Token"] = csrfToken;
  const response = await fetch(path, {
    method,
    headers,
    credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(
      response.status,
      error.code || "http_" + response.status,
      error.message || text,
    );
  }
  return data;
}

export function getJson(path) {
  return request("GET", path);
}

export function send(method, path, body = {}) {
  return request(method, path, body);
}

/** The account behind the session cookie (a guest is made if there is none); keeps its token. */
export async function fetchMe() {
  const me = await getJson("/api/me");
  csrfToken = me.csrf;
  return me;
}

/** The list inside a response that may be a bare list or an object holding one. */
export function listOf(data, key) {
  if (Array.isArray(data)) return data;
  if (data && Array.isArray(data[key])) return data[key];
  return [];
}
