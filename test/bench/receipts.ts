/**
 * Receipts: the PDF's rendering on its own (wall time and the CPU time this process spent, per
 * receipt; the goal is under 100 ms of CPU, as a Lambda bills it), then p50/p99 of the receipt page
 * and of its PDF through the local gateway, with the DynamoDB calls each request makes. The charge
 * and its link are stored straight into the table, as the receipt e-mail's function leaves them.
 */

import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { newCharge } from '../../shared/charges/charge.ts';
import { chargeEntity } from '../../shared/charges/repository.ts';
import { prefixedId } from '../../shared/core/ids.ts';
import type { Deps } from '../../shared/db/deps.ts';
import { receiptPdf } from '../../shared/receipts/pdf.ts';
import { type ReceiptView, receiptPdfUrl, receiptUrl } from '../../shared/receipts/receipt.ts';
import { issueReceiptLink } from '../../shared/receipts/repository.ts';
import { stageReceiptKeys } from '../../shared/receipts/service.ts';
import { currencyOf } from '../support/money.ts';
import { ms, timed } from './timing.ts';

interface Options {
  deps: Deps;
  developerId: number;
  apiUrl: string;
  requests: number;
  calls: () => number;
  resetCalls: () => void;
  percentile: (sorted: number[], p: number) => number;
}

const view: ReceiptView = {
  language: 'es',
  merchant: 'Panadería Sol y Hijos',
  amount: 123_456,
  currency: currencyOf('MXN'),
  description:
    'Pedido 1001: pan dulce, conchas y café de olla para la oficina, entrega el viernes por la mañana',
  paidAt: '2026-11-22T10:15:00.000Z',
  cardBrand: 'visa',
  cardLast4: '4242',
  reference: 'ch_4fR9kq2LmN8pXz7VbT1cYw3e',
  test: true,
};

async function renders(options: Options): Promise<void> {
  for (let i = 0; i < 20; i++) await receiptPdf(view); // warm: modules loaded, code compiled
  const wall: number[] = [];
  const cpu: number[] = [];
  let bytes = 0;
  for (let i = 0; i < options.requests; i++) {
    const started = performance.now();
    const used = process.cpuUsage();
    bytes = (await receiptPdf(view)).byteLength;
    const spent = process.cpuUsage(used);
    wall.push(performance.now() - started);
    cpu.push((spent.user + spent.system) / 1000);
  }
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const p = options.percentile;
  console.log(`receipt PDF rendered in process (${options.requests} renders, ${bytes} bytes each)`);
  console.log(`  wall  p50 ${ms(p(wall, 50))}   p99 ${ms(p(wall, 99))}`);
  console.log(`  CPU   p50 ${ms(p(cpu, 50))}   p99 ${ms(p(cpu, 99))}   (goal: under 100 ms)`);
}

/** GETs `url` through the gateway, which must answer 200 with a body of `type`. */
const fetched = (label: string, url: string, type: string) => async () => {
  const response = await fetch(url);
  if (response.status !== 200 || !response.headers.get('content-type')?.startsWith(type))
    throw new Error(`${label} answered ${response.status}`);
  await response.arrayBuffer();
};

export async function benchReceipts(options: Options): Promise<void> {
  await renders(options);
  const { deps } = options;
  const charge = newCharge({
    id: prefixedId('ch'),
    developerId: options.developerId,
    mode: 'test',
    source: 'checkout',
    paymentId: null,
    attemptId: prefixedId('att'),
    customerId: null,
    amount: 123_456,
    currency: 'MXN',
    description: view.description,
    statementDescription: 'BENCH',
    card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2099, country: 'MX' },
    acquirerReference: 'bench',
    now: deps.clock(),
  });
  await deps.db.send(new PutCommand(chargeEntity.create(deps.table, charge).Put));
  const token = await issueReceiptLink(deps, await stageReceiptKeys().sign(), {
    scope: { developerId: options.developerId, mode: 'test' },
    chargeId: charge.id,
  });
  console.log(`receipt page and PDF through the local gateway (${options.requests} requests each)`);
  const page = 'GET /receipts/{token}';
  const pdf = 'GET /receipts/{token}.pdf';
  await timed(options, page, fetched(page, receiptUrl(options.apiUrl, token), 'text/html'));
  await timed(options, pdf, fetched(pdf, receiptPdfUrl(options.apiUrl, token), 'application/pdf'));
  console.log('');
}
