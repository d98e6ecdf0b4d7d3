/** §2: "The Next Generation Of Social Money" and its four cards. */
const cards = [
  {
    title: 'For Telegram OGs',
    image: '/art/feature-telegram-ogs.svg',
    text: 'Your Telegram account age is worth something. The longer you have been on Telegram, the bigger your welcome reward and the higher your title.',
  },
  {
    title: 'For Twitter OGs',
    image: '/art/feature-twitter-ogs.svg',
    text: 'Connect your X account and every year of your history there counts toward your $MONEY. Early adopters finally get paid for being early.',
  },
  {
    title: 'For Creators',
    image: '/art/feature-creators.svg',
    text: 'Fans tip you with Dollar straight from the chat, and you receive $MONEY. Social money that rewards the people who make the feed worth reading.',
  },
  {
    title: 'For Community',
    image: '/art/feature-community.svg',
    text: 'A sharing-economy society: invite friends, share a slice of what they earn, and grow the network together instead of alone.',
  },
] as const;

export const Features = () => (
  <section className="section" aria-labelledby="features-title">
    <div className="section-head centered">
      <p className="eyebrow">Why $MONEY</p>
      <h2 id="features-title">The Next Generation Of Social Money</h2>
    </div>
    <ul className="feature-grid">
      {cards.map((c) => (
        <li className="feature-card" key={c.title}>
          <img src={c.image} alt="" width="160" height="120" loading="lazy" decoding="async" />
          <h3>{c.title}</h3>
          <p>{c.text}</p>
        </li>
      ))}
    </ul>
  </section>
);
