/** The airdrop snapshot's operator controls go here (docs/admin.md "Airdrop"); the snapshot API is its own piece. */
const AirdropPage = () => (
  <>
    <header className="page__head"><h1>Airdrop</h1></header>
    <section className="panel" data-testid="airdrop-slot">
      <h2>Snapshot</h2>
      <p className="muted">The snapshot button and its rounds appear here once the airdrop operator API is wired to the console.</p>
    </section>
  </>
);

export default AirdropPage;
