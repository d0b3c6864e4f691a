/**
 * Issue 6: the shared transport contract, run against all three transports on real channels.
 */
import { describeTransportContract } from './contract/describeTransportContract.js';
import { makeHttpPair, makeStdioPair, makeWebSocketPair } from './contract/pairs.js';

describeTransportContract('Streamable HTTP', makeHttpPair);
describeTransportContract('WebSocket', makeWebSocketPair);
describeTransportContract('stdio', makeStdioPair);
