// The page's entry: a router over the address fragment. Routes:
//   #/                      home
//   #/game/{id}?token=…     a game, from the seat the token opens (no token: spectator)
//   #/lab[?dna=…|genome=…|new=1]   the lab
//   #/code/{code}           a genome or preset by code
//   #/rules                 how to play
//   #/record/{id}           a finished game's record, replayed on a board
//   #/@/{name}              a player's profile
//   #/leaderboard           the best established ratings
//   #/bots                  the bots online, and challenges to a bot or a friend
//   #/watch                 the live games, each opened as a spectator
//   #/tv                    the TV game, large, moving on to the next when it ends
//   #/library[/{id}]        the piece library: search and publish; one entry and its family tree
//   #/signin, #/signup      sign in, make an account (?then=… is where to go after)
//   #/events[/new]          run an event: create one, and this browser's events
//   #/events/{id}           an event: its organiser's controls, rounds and standings
//   #/events/{id}/team      a team's page (…/join?code=… joins with the team's code)
//   #/events/{id}/screen    the projector view: every board of the round, live
// Tokens stay in the fragment, which browsers never send to the server.

import { homePage } from './home.js';
import { gamePage } from './game.js';
import { labPage } from './lab.js';
import { lookupPage } from './lookup.js';
import { rulesPage } from './rules.js';
import { recordPage } from './record.js';
import { profilePage } from './profile.js';
import { leaderboardPage } from './leaderboard.js';
import { botsPage } from './bots.js';
import { organiserPage } from './organise.js';
import { teamPage } from './team.js';
import { screenPage } from './screen.js';
import { watchPage, tvPage } from './watch.js';
import { libraryPage, entryPage } from './library.js';
import { accountPage, loadAccount, onAccountChange, renderHeader } from './account.js';
import { gameInDiscovery, loadConfig } from './config.js';
import { loadLanguage, t } from './i18n.js';
import { hideToast } from './dom.js';

// Script errors are kept where the browser tests can read them (window.__errors).
window.__errors = [];
window.addEventListener('error', (event) => window.__errors.push(String(event.message)));
window.addEventListener('unhandledrejection', (event) => window.__errors.push(String(event.reason)));

let leave = () => {};

function route() {
  const main = document.getElementById('main');
  const hash = location.hash.replace(/^#/, '') || '/';
  if (!hash.startsWith('/')) return; // an in-page anchor, not a route
  const [path, query = ''] = hash.split('?');
  const params = new URLSearchParams(query);
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  leave();
  // Only the game page knows its game's mode; any page starts from the server's.
  gameInDiscovery(false);
  // A notice belongs to the page that showed it.
  hideToast();
  let page = 'home';
  if (parts[0] === 'game' && parts[1]) {
    page = 'game';
    leave = gamePage(main, parts[1], params.get('token'));
    document.title = t('title.game', { id: parts[1] });
  } else if (parts[0] === 'lab') {
    page = 'lab';
    leave = labPage(main, params);
    document.title = t('title.lab');
  } else if (parts[0] === 'code' && parts[1]) {
    page = 'code';
    leave = lookupPage(main, parts[1]);
    document.title = t('title.named', { name: parts[1] });
  } else if (parts[0] === 'record' && parts[1]) {
    page = 'record';
    leave = recordPage(main, parts[1]);
    document.title = t('title.record', { id: parts[1] });
  } else if (parts[0] === '@' && parts[1]) {
    page = 'profile';
    leave = profilePage(main, parts[1]);
    document.title = t('title.named', { name: parts[1] });
  } else if (parts[0] === 'leaderboard') {
    page = 'leaderboard';
    leave = leaderboardPage(main);
    document.title = t('title.leaderboard');
  } else if (parts[0] === 'bots') {
    page = 'bots';
    leave = botsPage(main);
    document.title = t('title.bots');
  } else if (parts[0] === 'watch') {
    page = 'watch';
    leave = watchPage(main);
    document.title = t('title.watch');
  } else if (parts[0] === 'library' && parts[1]) {
    page = 'library-entry';
    leave = entryPage(main, parts[1]);
    document.title = t('title.library');
  } else if (parts[0] === 'library') {
    page = 'library';
    leave = libraryPage(main);
    document.title = t('title.library');
  } else if (parts[0] === 'tv') {
    page = 'tv';
    leave = tvPage(main);
    document.title = t('title.tv');
  } else if (parts[0] === 'events' && parts[1] && parts[1] !== 'new' && (parts[2] === 'team' || parts[2] === 'join')) {
    page = 'event-team';
    leave = teamPage(main, parts[1], params);
    document.title = t('title.team');
  } else if (parts[0] === 'events' && parts[1] && parts[1] !== 'new' && parts[2] === 'screen') {
    page = 'event-screen';
    leave = screenPage(main, parts[1]);
    document.title = t('title.screen');
  } else if (parts[0] === 'events') {
    const id = parts[1] && parts[1] !== 'new' ? parts[1] : null;
    page = id ? 'event' : 'events';
    leave = organiserPage(main, id);
    document.title = id ? t('title.event') : t('title.events');
  } else if (parts[0] === 'signin' || parts[0] === 'signup') {
    page = parts[0];
    leave = accountPage(main, parts[0], params);
    document.title = t(parts[0] === 'signup' ? 'title.signup' : 'title.signin');
  } else if (parts[0] === 'rules') {
    page = 'rules';
    leave = rulesPage(main);
    document.title = t('title.rules');
  } else {
    leave = homePage(main);
    document.title = 'GMO chess';
  }
  document.body.dataset.page = page;
  renderHeader(); // its sign-in links come back to this page
  for (const link of document.querySelectorAll('header nav a')) {
    link.toggleAttribute('aria-current', link.getAttribute('href') === `#/${page === 'home' ? '' : page}`);
  }
}

// The skip link focuses the content without touching the route.
document.getElementById('skip-link')?.addEventListener('click', (event) => {
  event.preventDefault();
  document.getElementById('main')?.focus();
});
// Pages that read who is signed in are drawn again when that changes (a sign-out in the header).
onAccountChange(() => {
  if (['home', 'profile', 'leaderboard', 'bots', 'events', 'event', 'library', 'library-entry'].includes(document.body.dataset.page)) route();
});
// The language's messages, who is signed in and what the server is (discovery or not), before
// the first page (English, signed out and the ordinary mode if the server does not answer).
// The header drawn before the messages are in is drawn again by the first route.
Promise.allSettled([loadLanguage(), loadAccount(), loadConfig()]).finally(() => {
  window.addEventListener('hashchange', route);
  route();
});
