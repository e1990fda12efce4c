// Rules pages in Italian, translated from rules/en.js (the same structure, checked by
// e2e/unit/i18n.test.mjs). Terms of dama: pedina, dama, dama a lungo raggio, presa,
// andare a dama, regole di precedenza, colpo turco, patta.

const draw40 =
  'Vinci quando l’avversario resta senza pezzi o senza mosse. La partita è patta automaticamente alla terza ripetizione della stessa posizione (con lo stesso giocatore al tratto) e dopo 40 mosse per parte senza prese né promozioni.';
const draw64 = [
  'Vinci quando l’avversario resta senza pezzi o senza mosse. La terza ripetizione della stessa posizione è patta.',
  'I limiti di mosse seguono il regolamento ufficiale del gioco su 64 caselle (FMJD-64 7.2.4–7.2.8); il server li applica da solo, senza bisogno di reclamarli:',
  {
    ul: [
      'una dama sola contro 1–2 pezzi di cui una dama: patta dopo la 5ª mossa della parte più forte;',
      'una dama sola sulla grande diagonale contro 3 pezzi con una dama: patta dopo 5 mosse, contate solo finché la dama sta su quella diagonale;',
      'una dama sola contro 3 o più dame: patta dopo la 15ª mossa della parte più forte;',
      'dame da entrambe le parti, 4–5 pezzi: 30 mosse; 6–7 pezzi: 60 mosse;',
      'dame da entrambe le parti, 8 pezzi o più: 15 mosse in cui si sono mosse solo dame senza prendere;',
      'qualsiasi altra posizione: 40 mosse per parte senza prese né promozioni.',
    ],
  },
  'Ogni presa e ogni promozione fanno ripartire i conteggi. I contatori aggiornati sono mostrati accanto alla damiera.',
];

export default {
  index: {
    title: 'Regole della dama',
    lead: 'Sette varianti, ognuna con la sua sala. Scegli una variante per leggerne le regole complete.',
    compare: 'Le varianti a confronto',
    common: 'Al tavolo',
    commonText: [
      'Quando crei un tavolo stabilisci il tempo di ciascun giocatore per tutta la partita (da 1 a 15 minuti) e un incremento aggiunto dopo ogni mossa (da 0 a 10 secondi). Il tuo orologio corre solo quando tocca a te; se il tempo finisce, perdi.',
      'La partita inizia quando entrambi i posti sono occupati ed entrambi i giocatori hanno premuto Inizia. Puoi proporre la patta o abbandonare; finché entrambi i giocatori non hanno fatto la prima mossa, la partita può essere annullata senza risultato.',
      'Per muovere, clicca il tuo pezzo e poi la casella in cui spostarlo. In una presa multipla clicca ogni casella d’arrivo a turno; la damiera offre solo le continuazioni valide.',
      'L’apertura casuale fa iniziare la partita dopo quattro mosse casuali senza prese (due per parte). L’opzione «presa facoltativa» (solo 8x8, partite amichevoli) permette di non prendere e fare una mossa semplice.',
    ],
  },
  comparison: {
    head: ['Regola', 'Americana', 'Russa', 'Brasiliana', 'Spagnola', 'Italiana', 'Ceca', 'Internazionale'],
    rows: [
      ['Damiera / pedine per parte', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '10x10 / 20'],
      ['Muove per primo', 'Nero', 'Bianco', 'Bianco', 'Bianco', 'Bianco', 'Bianco', 'Bianco'],
      ['Le pedine prendono all’indietro', 'No', 'Sì', 'Sì', 'No', 'No', 'No', 'Sì'],
      ['Dame a lungo raggio', 'No', 'Sì', 'Sì', 'Sì', 'No', 'Sì', 'Sì'],
      ['Le pedine possono prendere le dame', 'Sì', 'Sì', 'Sì', 'Sì', 'No', 'Sì', 'Sì'],
      ['Obbligo di prendere più pezzi', 'No', 'No', 'Sì', 'Sì', 'Sì', 'No', 'Sì'],
      ['Altre precedenze di presa', 'Libera scelta', 'Libera scelta', 'Libera scelta', 'Più dame', 'Prima prende la dama, poi più dame, poi la dama incontrata prima', 'Se una dama può prendere, prende la dama', 'Libera scelta'],
      ['Pedina che raggiunge l’ultima riga durante una presa', 'Va a dama, la mossa finisce', 'Va a dama e continua a prendere come dama', 'Continua come pedina; va a dama se la mossa finisce lì', 'Va a dama, la mossa finisce', 'Va a dama, la mossa finisce', 'Va a dama, la mossa finisce', 'Continua come pedina; va a dama se la mossa finisce lì'],
    ],
  },
  variants: {
    american: {
      title: 'Regole della dama americana (dama inglese, checkers)',
      intro: 'La dama americana, detta dama inglese in Gran Bretagna (checkers, draughts), è il gioco su 8x8 con cui cresce la maggior parte di chi parla inglese. Le pedine vanno avanti, la presa è obbligatoria e la dama si muove di una casella in ogni direzione diagonale.',
      sections: [
        ['Damiera e disposizione', 'La damiera ha 8 righe e 8 colonne; si usano solo le 32 caselle scure. Ogni giocatore inizia con 12 pedine sulle caselle scure delle tre righe più vicine. Muove per primo il Nero. Le caselle sono numerate da 1 a 32 (notazione PDN); il Nero parte da 1–12.'],
        ['Movimento', 'La pedina si muove di una casella in diagonale in avanti, su una casella scura libera. Le pedine non si muovono né prendono mai all’indietro.'],
        ['Presa', { ul: [
          'Un pezzo salta in diagonale un pezzo avversario adiacente, atterrando sulla casella libera subito dopo.',
          'La presa è obbligatoria: se un tuo pezzo può prendere, devi prendere.',
          'Se dopo l’atterraggio il pezzo può prendere ancora, deve continuare nella stessa mossa, e può cambiare direzione tra un salto e l’altro.',
          'Con più prese possibili puoi sceglierne una qualsiasi: non c’è obbligo di prendere più pezzi, ma una sequenza iniziata va completata.',
        ] }],
        ['Dame', 'Una pedina che raggiunge l’ultima riga diventa dama. Se ci arriva prendendo, va a dama e la mossa finisce, anche se la nuova dama potrebbe prendere ancora. La dama si muove e prende di una casella in diagonale in tutte e quattro le direzioni; non è a lungo raggio.'],
        ['Vittoria e patta', draw40],
        ['Consigli', { ul: [
          'Tieni il centro: i pezzi centrali hanno più mosse.',
          'Conserva la tua ultima riga il più a lungo possibile: impedisce all’avversario di andare a dama.',
          'Gioca a coppie: un pezzo con un tuo pezzo subito dietro non può essere preso dal davanti.',
          'Conta le prese forzate prima di ogni mossa: un sacrificio ben piazzato può preparare una presa doppia o tripla.',
        ] }],
      ],
    },
    russian: {
      title: 'Regole della dama russa',
      intro: 'La dama russa è un gioco veloce su 8x8 con dame a lungo raggio e pedine che prendono anche all’indietro. Non c’è obbligo di prendere più pezzi, e una pedina che raggiunge l’ultima riga durante una presa va subito a dama e continua a prendere.',
      sections: [
        ['Damiera e disposizione', 'Si gioca sulle 32 caselle scure di una damiera 8x8, 12 pedine per parte. Muove per primo il Bianco. Le caselle usano la notazione algebrica: colonne a–h, righe 1–8, a1 nell’angolo in basso a sinistra del Bianco. Il Bianco parte da a1, c1, e1, g1, b2, d2, f2, h2, a3, c3, e3, g3.'],
        ['Movimento', 'Le pedine si muovono di una casella in diagonale in avanti. Le dame sono a lungo raggio: si muovono di quante caselle libere vogliono lungo una diagonale, avanti o indietro.'],
        ['Presa', { ul: [
          'La presa è obbligatoria.',
          'Le pedine prendono in avanti e all’indietro, saltando un pezzo avversario adiacente fino alla casella libera dopo di esso.',
          'La dama prende a distanza: con le caselle intermedie libere, salta il pezzo avversario e atterra su una qualsiasi casella libera oltre; se da alcune di queste caselle può prendere ancora, deve atterrare su una di esse.',
          'Puoi scegliere qualsiasi presa: non c’è obbligo di prendere più pezzi. La presa scelta va completata.',
          'I pezzi presi restano sulla damiera fino alla fine della mossa e non possono essere saltati due volte.',
        ] }],
        ['Promozione', 'Una pedina che raggiunge l’ultima riga diventa dama. Se ci arriva durante una presa e può prendere ancora, va subito a dama e continua a prendere come dama: il tratto distintivo della dama russa.'],
        ['Vittoria e patta', ...draw64],
        ['Consigli', { ul: [
          'Attento alle prese all’indietro: anche una pedina dietro le tue linee è pericolosa.',
          'Una promozione nel mezzo di una presa può ribaltare la partita: guarda dove finisce una serie di salti.',
          'Con la libera scelta della presa, scegli in base alla posizione che ne risulta, non al numero di pezzi presi.',
        ] }],
      ],
    },
    brazilian: {
      title: 'Regole della dama brasiliana',
      intro: 'La dama brasiliana porta le regole di presa della dama internazionale 10x10 sulla damiera 8x8. Le pedine prendono all’indietro, le dame sono a lungo raggio e, quando hai più prese, devi seguire il percorso che prende più pezzi.',
      sections: [
        ['Damiera e disposizione', 'Damiera e disposizione sono quelle della dama russa: 32 caselle scure e 12 pedine per parte sulle tre righe più vicine. Muove per primo il Bianco. Notazione algebrica (a1–h8).'],
        ['Movimento', 'Le pedine si muovono di una casella in diagonale in avanti. Le dame sono a lungo raggio: una dama si muove di quante caselle libere vuole lungo una diagonale, avanti o indietro.'],
        ['Presa', { ul: [
          'La presa è obbligatoria.',
          'Le pedine prendono in avanti e all’indietro, saltando un pezzo avversario adiacente fino alla casella libera dopo di esso.',
          'Una dama a lungo raggio può prendere un pezzo avversario a distanza se le caselle intermedie sono libere, e atterrare su una qualsiasi casella libera oltre.',
          'Regola della maggioranza: devi fare la presa che prende più pezzi. Una dama conta come una pedina. Tra percorsi di uguale lunghezza scegli liberamente.',
          'Una presa multipla va completata. I pezzi presi restano sulla damiera fino alla fine della mossa e non possono essere saltati due volte.',
        ] }],
        ['Promozione', 'Una pedina che raggiunge l’ultima riga diventa dama. Se ci arriva nel mezzo di una presa e può prendere ancora, continua come pedina e va a dama solo se la mossa finisce sull’ultima riga (come nella dama internazionale).'],
        ['Vittoria e patta', ...draw64],
        ['Consigli', { ul: [
          'Conta la presa più lunga per entrambe le parti: la regola della maggioranza toglie la scelta, quindi le risposte si possono spesso prevedere.',
          'Guida il gioco con i sacrifici: cedi un pezzo in modo che la presa più lunga obbligata finisca dove riprendi di più.',
          'Attento alle prese all’indietro: tieni i tuoi pezzi in gruppi compatti.',
        ] }],
      ],
    },
    spanish: {
      title: 'Regole della dama spagnola',
      intro: 'La dama spagnola unisce pedine che si muovono e prendono solo in avanti a dame a lungo raggio e a due regole di presa severe: prendere più pezzi e, se due percorsi ne prendono altrettanti, prendere più dame.',
      sections: [
        ['Damiera e disposizione', 'La dama spagnola usa 32 caselle scure e 12 pedine per parte. La damiera è speculare rispetto alle altre varianti 8x8: l’angolo in basso a sinistra di ogni giocatore è una casella chiara. Muove per primo il Bianco. Le caselle sono numerate da 1 a 32; la casella 1 è l’angolo in basso a destra del Bianco, che parte da 1–12.'],
        ['Movimento', 'Le pedine si muovono di una casella in diagonale in avanti, mai all’indietro. Le dame sono a lungo raggio: una dama si muove di quante caselle libere vuole lungo una diagonale, in ogni direzione.'],
        ['Presa', { ul: [
          'La presa è obbligatoria.',
          'Le pedine prendono solo in avanti.',
          'Una dama a lungo raggio può prendere un pezzo avversario a distanza se le caselle intermedie sono libere, e atterrare su una qualsiasi casella libera oltre.',
          'Regola della quantità: devi scegliere la presa che prende più pezzi.',
          'Regola della qualità: se più prese prendono lo stesso numero di pezzi, devi scegliere quella che prende più dame.',
          'Una presa multipla va completata. I pezzi presi restano sulla damiera fino alla fine della mossa e non possono essere saltati due volte.',
        ] }],
        ['Promozione', 'Una pedina che raggiunge l’ultima riga diventa dama. Se ci arriva durante una presa, va a dama e la mossa finisce.'],
        ['Vittoria e patta', ...draw64],
        ['Consigli', { ul: [
          'Proteggi le pedine da dietro: non prendono all’indietro, quindi una dama dietro le tue linee attacca senza rischi.',
          'Fai la prima dama: una dama a lungo raggio contro pedine che prendono solo in avanti spesso decide la partita.',
          'Conta prima i pezzi, poi le dame, per sapere quale presa è obbligato a fare l’avversario.',
        ] }],
      ],
    },
    italian: {
      title: 'Regole della dama italiana',
      intro: 'La dama italiana ha dame che si muovono di una casella, pedine che non possono prendere le dame e le regole di precedenza nella presa più severe di tutte le varianti.',
      sections: [
        ['Damiera e disposizione', 'Si gioca su 32 caselle scure, 12 pedine per parte, su una damiera speculare: l’angolo in basso a sinistra di ogni giocatore è una casella chiara. Muove per primo il Bianco. Le caselle sono numerate da 1 a 32; la casella 1 è l’angolo in alto a sinistra, il Nero parte da 1–12 e il Bianco da 21–32.'],
        ['Movimento', 'Le pedine si muovono di una casella in diagonale in avanti. Le dame si muovono di una casella in diagonale in ogni direzione; non sono a lungo raggio.'],
        ['Presa', { ul: [
          'La presa è obbligatoria e una presa iniziata va completata.',
          'Le pedine prendono solo in avanti e non possono mai prendere una dama.',
          'Tra tutte le prese, in quest’ordine: 1) prendere più pezzi; 2) se una dama può prendere, prendere con la dama; 3) prendere più dame; 4) incontrare una dama il prima possibile nella sequenza. La scelta che resta è libera.',
        ] }],
        ['Promozione', 'Una pedina che raggiunge l’ultima riga va a dama, e la mossa finisce.'],
        ['Vittoria e patta', draw40],
        ['Consigli', { ul: [
          'La dama non teme le pedine: usala con coraggio al centro.',
          'Le regole di precedenza rendono la presa dell’avversario esattamente prevedibile; contala prima di ogni sacrificio.',
        ] }],
      ],
    },
    czech: {
      title: 'Regole della dama ceca',
      intro: 'La dama ceca sta tra la russa e la spagnola. Le dame sono a lungo raggio e le pedine prendono solo in avanti, ma non c’è obbligo di prendere più pezzi. C’è invece una precedenza: ogni volta che una tua dama può prendere, devi prendere con una dama.',
      sections: [
        ['Damiera e disposizione', 'La dama ceca usa 32 caselle scure e 12 pedine per parte. Muove per primo il Bianco. Notazione algebrica (a1–h8), come nella dama russa.'],
        ['Movimento', 'Le pedine si muovono di una casella in diagonale in avanti. Le dame sono a lungo raggio: una dama si muove di quante caselle libere vuole lungo una diagonale, avanti o indietro.'],
        ['Presa', { ul: [
          'La presa è obbligatoria.',
          'Le pedine prendono solo in avanti.',
          'Una dama a lungo raggio può prendere un pezzo avversario a distanza se le caselle intermedie sono libere, e atterrare su una qualsiasi casella libera oltre.',
          'Prima la dama: se una tua dama può prendere, devi prendere con una dama, anche se una pedina prenderebbe più pezzi.',
          'Per il resto puoi scegliere qualsiasi presa; non c’è obbligo di prendere più pezzi.',
          'La presa scelta va completata. I pezzi presi restano sulla damiera fino alla fine della mossa e non possono essere saltati due volte.',
        ] }],
        ['Promozione', 'Una pedina che raggiunge l’ultima riga diventa dama. Se ci arriva durante una presa, va a dama e la mossa finisce (le fonti ceche non ne parlano; seguiamo la regola spagnola).'],
        ['Vittoria e patta', ...draw64],
        ['Consigli', { ul: [
          'Sfrutta la regola «prima la dama»: offrire un pezzo a una dama avversaria obbliga a una presa di dama.',
          'La regola vale anche per te: prima di andare a dama, guarda che cosa sarà obbligata a prendere la tua nuova dama.',
          'Proteggi le pedine da dietro: non prendono all’indietro, quindi una dama dietro le tue linee è pericolosa.',
        ] }],
      ],
    },
    international: {
      title: 'Regole della dama internazionale (10x10)',
      intro: 'La dama internazionale è il gioco dei tornei FMJD: damiera 10x10, 20 pedine per parte, pedine che prendono all’indietro, dame a lungo raggio e obbligo di prendere più pezzi.',
      sections: [
        ['Damiera e disposizione', 'Si gioca sulle 50 caselle scure di una damiera 10x10, 20 pedine per parte sulle quattro righe più vicine. Muove per primo il Bianco. Le caselle sono numerate da 1 a 50; il Nero sta su 1–20, il Bianco su 31–50.'],
        ['Movimento', 'Le pedine si muovono di una casella in diagonale in avanti. Le dame sono a lungo raggio: si muovono di quante caselle libere vogliono lungo una diagonale, in ogni direzione.'],
        ['Presa', { ul: [
          'La presa è obbligatoria, anche all’indietro per le pedine.',
          'La dama prende a distanza e atterra su una qualsiasi casella libera oltre il pezzo preso, a meno che da alcune di esse possa prendere ancora: allora deve atterrare lì e continuare.',
          'Regola della maggioranza: devi fare la presa che prende più pezzi; una dama conta come una pedina.',
          'I pezzi presi restano sulla damiera fino alla fine della mossa e non possono essere saltati due volte (la regola del colpo turco).',
        ] }],
        ['Promozione', 'Una pedina va a dama quando finisce la sua mossa sull’ultima riga. Se passa per l’ultima riga nel mezzo di una presa, continua come pedina e non va a dama.'],
        ['Vittoria e patta', 'Vinci quando l’avversario non ha pezzi o mosse. Patta: la terza ripetizione di una posizione; 25 mosse per parte in cui si muovono solo dame (una mossa di pedina, una presa o una promozione fa ripartire il conteggio); una dama sola contro tre pezzi di cui almeno una dama: patta dopo 16 mosse per parte; una dama sola contro al massimo due pezzi di cui una dama: patta dopo 5 mosse per parte.'],
        ['Consigli', { ul: [
          'La regola della maggioranza rende possibili le combinazioni: un sacrificio costringe alla presa più lunga, dopo la quale riprendi di più.',
          'Lotta per il centro (caselle 22–29) e non lasciare buchi dietro le tue pedine, perché le pedine prendono all’indietro.',
        ] }],
      ],
    },
  },
};
