/**
 * The home page arrives in the first round trip of a new connection: TCP sends at most its
 * initial window, 10 segments of 1,460 bytes (14,600 bytes), before the browser's first
 * acknowledgement, and Lighthouse's simulated slow 4G counts exactly that, response headers
 * included. A page one byte over waits a whole round trip more (150 ms there) before it can be
 * painted: issue 16's legal pages inlined as templates took the gzipped HTML past it, and the
 * home page's LCP from 1.06x to 1.19x the bare floor page's. web/build.ts keeps every other
 * route's page out of index.html for this reason.
 *
 * Measured as the browser receives it from the server (the e2e project's wrangler dev, serving
 * the build as deployed): the status line, the headers and the gzip-encoded body, each byte on
 * the wire but the chunked encoding's framing. A deployed response carries more headers
 * (Cloudflare's own, a CSP naming Turnstile), hence the headroom.
 */
import { request } from "node:http";
import { describe, expect, inject, it } from "vitest";

const baseUrl = inject("baseUrl");

/** TCP's initial congestion window (RFC 6928: 10 segments) at the usual 1,460-byte segment. */
const FIRST_ROUND_TRIP_BYTES = 10 * 1460;
/** What the deployed response's extra headers may take. */
const HEADROOM_BYTES = 1000;

/** The response to GET `path` as sent: its head's bytes and its body's, still encoded. */
function rawResponse(path: string): Promise<{ status: number; encoding: string | undefined; headBytes: number; bodyBytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { headers: { "Accept-Encoding": "gzip, deflate, br" } }, (response) => {
      const head = [`HTTP/${response.httpVersion} ${response.statusCode} ${response.statusMessage}`];
      for (let i = 0; i < response.rawHeaders.length; i += 2) head.push(`${response.rawHeaders[i]}: ${response.rawHeaders[i + 1]}`);
      let bodyBytes = 0;
      response.on("data", (chunk: Buffer) => {
        bodyBytes += chunk.length;
      });
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          encoding: response.headers["content-encoding"],
          headBytes: Buffer.byteLength(`${head.join("\r\n")}\r\n\r\n`),
          bodyBytes,
        }),
      );
      response.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the home page's HTML", () => {
  it("fits the first round trip of a new connection, headers included, with room for a deployed response's headers", async () => {
    const response = await rawResponse("/");
    expect(response.status).toBe(200);
    expect(response.encoding).toBe("gzip");
    const bytes = response.headBytes + response.bodyBytes;
    expect(bytes, `${response.headBytes} bytes of head + ${response.bodyBytes} of gzipped body`).toBeLessThanOrEqual(
      FIRST_ROUND_TRIP_BYTES - HEADROOM_BYTES,
    );
  });
});
