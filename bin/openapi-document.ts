#!/usr/bin/env node
/**
 * Prints the OpenAPI document, built in this process from the route table and schemas (no stack
 * needed), as JSON on stdout. `npm run client:generate` pipes it to the typed client's generator.
 */
import { openApiDocument } from '../shared/api/openapi.ts';

/** The server the printed document names; a running stack serves it with its own base URL. */
const serverUrl = process.argv[2] ?? 'http://127.0.0.1:3000';

process.stdout.write(`${JSON.stringify(openApiDocument(serverUrl), null, 2)}\n`);
