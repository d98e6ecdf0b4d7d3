import { Link } from 'react-router-dom';

/** Unknown public paths: a small page with a way home. */
export const NotFoundPage = () => (
  <main id="main" className="page narrow not-found">
    <title>Page not found — MONEY</title>
    <meta name="robots" content="noindex" />
    <p className="eyebrow">404</p>
    <h1>This page is not here</h1>
    <p>The link may be old, or the page may have moved.</p>
    <Link className="btn btn-primary" to="/">
      Back to the home page
    </Link>
  </main>
);
