'use strict';
// The scaler, buggy: edge-triggered, it acts on the transitions it observes (add, size change, delete).
require('./lib').startScaler({ variant: 'buggy', levelTriggered: false });
