// The OpenAPI document is the API's contract: every response a test receives from a documented operation
// must be one the operation declares — its status, its content type, and (for JSON) its schema. The Worker
// tests (worker/test/helpers/api.ts, inside workerd) and the black-box API tests (tests/support/http.mjs,
// in Node) both check each response through this one module, so an undeclared status fails the test that
// met it. @cfworker/json-schema validates JSON Schema 2020-12 (what OpenAPI 3.1 uses) without eval, so it
// runs in workerd as well as in Node.
import { Validator } from '@cfworker/json-schema';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** `/api/message/{id}` → a pattern over one path segment per parameter. */
function templatePattern(template) {
  const source = template
    .split('/')
    .map((segment) => (segment.startsWith('{') ? '[^/]+' : segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/** A `$ref` to the document's own components, resolved (the document puts refs only at a schema's top). */
function resolveRef(document, schema) {
  const ref = schema?.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  return ref
    .slice(2)
    .split('/')
    .reduce((node, key) => node?.[key], document);
}

/**
 * Returns `check(response)`: the list of ways a response breaks what the document declares (empty when it
 * keeps it). A path the document does not list, or a method the path does not declare (answered 404 / 405 by
 * the router), is not an operation and is not checked here.
 */
export function responseContract(document) {
  const operations = [];
  for (const [template, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      if (!item[method]) continue;
      const parameters = (template.match(/\{/g) ?? []).length;
      operations.push({ method: method.toUpperCase(), template, pattern: templatePattern(template), parameters, operation: item[method] });
    }
  }
  // A literal path wins over a template that also matches it (`/api/message/pending` over `/api/message/{id}`).
  operations.sort((a, b) => a.parameters - b.parameters);
  const validators = new Map();
  const validatorOf = (key, schema) => {
    let validator = validators.get(key);
    if (!validator) {
      validator = new Validator(resolveRef(document, schema), '2020-12', false);
      validators.set(key, validator);
    }
    return validator;
  };

  return function check({ method, path, status, contentType, text }) {
    const pathname = new URL(path, 'http://contract.invalid').pathname;
    const upper = method.toUpperCase();
    const found = operations.find((o) => o.method === upper && o.pattern.test(pathname));
    if (!found) return [];
    const where = `${upper} ${pathname} → ${status} (${found.operation.operationId}, ${found.template})`;
    const declared = found.operation.responses?.[String(status)];
    if (!declared) {
      const statuses = Object.keys(found.operation.responses ?? {}).join(', ');
      return [`${where}: status ${status} is not declared (declared: ${statuses}); body: ${String(text).slice(0, 300)}`];
    }
    const content = declared.content;
    const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
    if (!content) {
      return text ? [`${where}: declares no body, but answered ${mediaType || 'a body without a type'}: ${String(text).slice(0, 200)}`] : [];
    }
    const declaredTypes = Object.keys(content);
    const match = declaredTypes.find((t) => t === mediaType || t === '*/*' || (t.endsWith('/*') && mediaType.startsWith(t.slice(0, -1))));
    if (!match) return [`${where}: answered ${mediaType || 'no content type'}, declared ${declaredTypes.join(' or ')}`];
    const schema = content[match].schema;
    if (!schema || !match.includes('json')) return [];
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      return [`${where}: declared ${match}, but the body is not JSON: ${String(text).slice(0, 200)}`];
    }
    const result = validatorOf(`${found.operation.operationId} ${status} ${match}`, schema).validate(body);
    if (result.valid) return [];
    const errors = result.errors
      .filter((e) => e.keyword !== 'properties' && e.keyword !== 'items' && e.keyword !== '$ref')
      .slice(0, 5)
      .map((e) => `${e.instanceLocation}: ${e.error}`);
    return [`${where}: the body does not match the declared schema — ${errors.join('; ')}; body: ${String(text).slice(0, 300)}`];
  };
}
