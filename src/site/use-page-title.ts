import { useEffect } from 'react';

/**
 * Sets document.title for a page. index.html already has a <title> (shared with the mini-app), and
 * a second <title> hoisted by React would lose to it, so we set the property instead.
 */
export const usePageTitle = (title: string): void => {
  useEffect(() => {
    document.title = title;
  }, [title]);
};
