/**
 * The OpenAPI document the stack serves passes Redocly CLI's and Spectral's lint (`redocly.yaml`,
 * `.spectral.yaml`) with no error and no warning, the check `npm run lint:openapi` makes of the
 * document generated in-process; and the check fails on a document that breaks a rule.
 */
import { describe, expect, it } from 'vitest';
import { failing, lintOpenApi } from '../../bin/lint-openapi.ts';
import { api } from '../support/stack.ts';

// biome-ignore lint/suspicious/noExplicitAny: the document is changed at arbitrary paths
type Doc = Record<string, any>;

async function servedDocument(): Promise<Doc> {
  const response = await api('GET', '/openapi.json');
  expect(response.status, response.text).toBe(200);
  return response.json;
}

const listed = (problems: readonly { tool: string; rule: string; path: string; message: string }[]) =>
  problems.map((p) => `${p.tool} ${p.rule} ${p.path}: ${p.message}`).join('\n');

describe('the OpenAPI document under Redocly and Spectral', () => {
  it('has no error and no warning', async () => {
    const problems = failing(await lintOpenApi(await servedDocument()));
    expect(problems, listed(problems)).toEqual([]);
  });

  it('fails an operation without a description or tags, and a tag nobody declared', async () => {
    const doc = await servedDocument();
    const createPlan = doc.paths['/v1/plans/'].post;
    delete createPlan.description;
    delete createPlan.tags;
    doc.paths['/v1/plans/'].get.tags = ['nobody'];
    const problems = failing(await lintOpenApi(doc));
    const found = problems.map((p) => `${p.tool} ${p.rule} ${p.path}`);
    expect(found, listed(problems)).toEqual(
      expect.arrayContaining([
        'spectral operation-description #/paths/~1v1~1plans~1/post',
        'spectral operation-tags #/paths/~1v1~1plans~1/post',
        'spectral operation-tag-defined #/paths/~1v1~1plans~1/get/tags/0',
      ]),
    );
  });
});
