'use strict';
// The scaler, fixed: level-triggered, it compares the set read from the API with the children there are.
require('./lib').startScaler({ variant: 'fixed', levelTriggered: true });
