import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { FastifyInstance } from 'fastify';
import { passwordHashQueue } from '../auth/passwords.js';

/** Prometheus metrics of one app instance: request latency by route, scans, provider errors, job queue. */
export class Metrics {
  readonly registry = new Registry();
  readonly requestSeconds = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status class',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly scans = new Counter({
    name: 'scans_total',
    help: 'Scans run',
    registers: [this.registry],
  });
  readonly scanStepSeconds = new Histogram({
    name: 'scan_step_duration_seconds',
    help: 'Time of each step of a scan: prepare, places (the providers), clean, rank (scoring, cache read), store',
    labelNames: ['step'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly providerErrors = new Counter({
    name: 'place_provider_errors_total',
    help: 'Place provider calls that failed or timed out, by provider',
    labelNames: ['provider'] as const,
    registers: [this.registry],
  });
  readonly jobQueueDepth = new Gauge({
    name: 'job_queue_depth',
    help: 'Background jobs pending or running',
    registers: [this.registry],
  });

  readonly passwordHashesWaiting = new Gauge({
    name: 'password_hashes_waiting',
    help: 'Password hashes (sign-in, registration, reset) waiting for a turn',
    registers: [this.registry],
    collect() {
      this.set(passwordHashQueue().waiting);
    },
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Time every request by its route pattern (never the raw URL, which would explode the label set). */
  instrument(app: FastifyInstance): void {
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      this.requestSeconds
        .labels(request.method, route, `${Math.floor(reply.statusCode / 100)}xx`)
        .observe(reply.elapsedTime / 1000);
      done();
    });
  }
}
