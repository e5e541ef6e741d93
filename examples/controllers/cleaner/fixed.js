'use strict';
// The cleaner, fixed: deletes only children adopted by that parent's uid, with preconditions.uid.
require('./lib').startCleaner({ variant: 'fixed', checkOwner: true });
