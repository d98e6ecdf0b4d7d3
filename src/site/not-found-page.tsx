import { useLingui } from '@lingui/react';
import { Link } from 'react-router-dom';
import { usePageTitle } from './use-page-title.ts';

/** Unknown public paths: a small page with a way home. */
export const NotFoundPage = () => {
  const { _ } = useLingui();
  usePageTitle(_('site.notFound.pageTitle'));
  return (
    <main id="main" className="page narrow not-found">
      <meta name="robots" content="noindex" />
      <p className="eyebrow">404</p>
      <h1>{_('site.notFound.title')}</h1>
      <p>{_('site.notFound.text')}</p>
      <Link className="btn btn-primary" to="/">
        {_('site.notFound.home')}
      </Link>
    </main>
  );
};
