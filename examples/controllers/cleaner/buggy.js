'use strict';
// The cleaner, buggy: deletes every child labelled with the name of a parent it sees being deleted.
require('./lib').startCleaner({ variant: 'buggy', checkOwner: false });
