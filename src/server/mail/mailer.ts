import nodemailer from 'nodemailer';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * SMTP through nodemailer when SMTP_URL is set. Without it, each mail goes to the server log and to a
 * file in DATA_DIR/outbox, so a self-hoster without a mail server can still hand out a reset link.
 */
export function createMailer(config: Config['mail'], log: FastifyBaseLogger): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: config.from, ...mail });
      },
    };
  }
  return {
    async send(mail) {
      await mkdir(config.outboxDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = join(config.outboxDir, `${stamp}-${mail.to.replace(/[^a-z0-9@._-]/gi, '_')}.txt`);
      await writeFile(
        file,
        `To: ${mail.to}\nFrom: ${config.from}\nSubject: ${mail.subject}\n\n${mail.text}\n`,
      );
      log.info(
        { to: mail.to, subject: mail.subject, file, text: mail.text },
        'mail written to outbox (no SMTP_URL)',
      );
    },
  };
}
