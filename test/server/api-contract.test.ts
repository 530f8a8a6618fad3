// The API contract. /api/openapi.json is a valid OpenAPI 3 document in which every operation has a
// summary, a response schema for its success and its error answers; answers are serialised from those schemas,
// and (strict, as under test) a route that answers a field its schema does not declare fails instead of
// silently losing it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { z } from 'zod';
import { undeclaredFields } from '../../src/server/http/contract.js';
import { buildSecondApp, createTestContext, type TestContext } from '../helpers/app.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

interface Operation {
  summary?: string;
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
}

describe('GET /api/openapi.json', () => {
  it('validates as OpenAPI 3 with a maintained validator', async () => {
    const res = await t.request({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const document = res.json<{ openapi: string }>();
    expect(document.openapi).toMatch(/^3\./);
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('gives every operation a summary, a success answer with a schema, and its error answers', async () => {
    const document = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, Operation>>;
    }>();
    const documented = new Set<string>();
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const name = `${method.toUpperCase()} ${path}`;
        documented.add(name);
        expect(op.summary, name).toBeTruthy();
        const responses = op.responses ?? {};
        const success = Object.keys(responses).filter((code) => code.startsWith('2'));
        expect(success.length, `${name} success answers`).toBeGreaterThan(0);
        for (const code of success) {
          // 204 has no body; every other success answer says what it holds.
          if (code !== '204') expect(responses[code]!.content, `${name} ${code}`).toBeTruthy();
        }
        for (const code of ['400', '500', '503']) {
          const error = responses[code]?.content?.['application/json']?.schema as
            { properties?: Record<string, unknown>; required?: string[] } | undefined;
          expect(error?.required, `${name} ${code}`).toContain('error');
        }
      }
    }
    // Every registered /api route is documented (better-auth's own and the document itself aside).
    const registered = t.app.apiRoutes
      .filter((r) => !r.url.startsWith('/api/auth/') && r.url !== '/api/openapi.json')
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`);
    expect(registered.filter((r) => !documented.has(r))).toEqual([]);
    // Signed-in routes document 401 and 403; public ones do not.
    expect(document.paths['/api/saved']!.get!.responses).toHaveProperty('401');
    expect(document.paths['/api/config']!.get!.responses).not.toHaveProperty('401');
  });
});

describe('answers are serialised from the response schemas', () => {
  /** Another app on the test database, to register a route of the test's own (strict: the default under test). */
  async function appWithLeak(strictResponses?: boolean) {
    const app = await buildSecondApp(t, strictResponses === undefined ? {} : { strictResponses });
    // Answers a field its schema lacks.
    app.get(
      '/api/leaky',
      {
        config: { access: 'public' },
        schema: { summary: 'leaks', response: { 200: z.object({ name: z.string() }) } },
      },
      () => ({ name: 'Ann', passwordHash: 'secret' }),
    );
    return app;
  }

  it('fails (500) a route that answers an undeclared field when strict, as the tests run', async () => {
    // The real routes run strict in every test of this suite: a presenter that grows a field fails there.
    const res = await t.request({ method: 'GET', url: '/api/config' });
    expect(res.statusCode).toBe(200);
    const app = await appWithLeak();
    const leaky = await app.inject({ method: 'GET', url: '/api/leaky' });
    expect(leaky.statusCode).toBe(500);
    expect(leaky.body).not.toContain('secret');
    await app.close();
  });

  it('drops the undeclared field when not strict: it never leaks', async () => {
    const app = await appWithLeak(false);
    const leaky = await app.inject({ method: 'GET', url: '/api/leaky' });
    expect(leaky.statusCode).toBe(200);
    expect(leaky.json()).toEqual({ name: 'Ann' });
    await app.close();
  });

  it('refuses to start with a route that has no response schema or no summary', async () => {
    const app = await appWithLeak();
    expect(() =>
      app.get('/api/unschemed', { config: { access: 'public' }, schema: { summary: 'x' } }, () => ({})),
    ).toThrow(/no success response schema/);
    expect(() =>
      app.get(
        '/api/unsummarised',
        { config: { access: 'public' }, schema: { response: { 200: z.object({}) } } },
        () => ({}),
      ),
    ).toThrow(/no summary/);
    await app.close();
  });

  it('names nested undeclared fields', () => {
    expect(
      undeclaredFields({ a: 1, b: { c: 2, d: [{ e: 1, f: 2 }] } }, { a: 1, b: { c: 2, d: [{ e: 1 }] } }),
    ).toEqual(['b.d[0].f']);
    expect(undeclaredFields({ a: undefined, b: 1 }, { b: 1 })).toEqual([]);
  });
});
