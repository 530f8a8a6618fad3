import type { FastifyReply } from 'fastify';

/** Answers with a CSV download: UTF-8 text/csv and an attachment file name (ASCII plus RFC 5987 form). */
export function sendCsv(reply: FastifyReply, fileName: string, csv: string): FastifyReply {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header(
      'content-disposition',
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    )
    .header('cache-control', 'no-store')
    .send(csv);
}
