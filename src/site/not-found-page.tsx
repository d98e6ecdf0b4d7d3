import { Link } from 'react-router-dom';
import { usePageTitle } from './use-page-title.ts';

/** Unknown public paths: a small page with a way home. */
export const NotFoundPage = () => {
  usePageTitle('Page not found — MONEY');
  return (
    <main id="main" className="page narrow not-found">
      <meta name="robots" content="noindex" />
      <p className="eyebrow">404</p>
      <h1>This page is not here</h1>
      <p>The link may be old, or the page may have moved.</p>
      <Link className="btn btn-primary" to="/">
        Back to the home page
      </Link>
    </main>
  );
};
