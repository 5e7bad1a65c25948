/**
 * Placeholder until the marketing site lands: says what the product is and where the
 * API lives, so `npm start` shows a real page.
 */
export function App() {
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", maxWidth: "40rem", margin: "4rem auto", padding: "0 1rem" }}>
      <h1>Your Homework, Solved in Seconds</h1>
      <p>The site is coming soon. The API is running: try <a href="/api/health">/api/health</a>.</p>
    </main>
  );
}
