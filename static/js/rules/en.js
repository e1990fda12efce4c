// Rules pages in English, following spec/rules.md (the contract) and the original
// Polish pages (shared/seeds).

const draw40 =
  'You win when your opponent has no pieces left or cannot move. The game is drawn automatically on the third repetition of the same position (same side to move) and after 40 moves by each side without a capture or a promotion.';
const draw64 = [
  'You win when your opponent has no pieces left or cannot move. The third repetition of the same position is a draw.',
  'The move limits follow the official 64-square rules (FMJD-64 7.2.4–7.2.8); the server applies them by itself, no claim needed:',
  {
    ul: [
      'a lone king against 1–2 pieces including a king: draw after the stronger side’s 5th move;',
      'a lone king on the long diagonal against 3 pieces with a king: draw after 5 moves, counted only while the king stands on that diagonal;',
      'a lone king against 3 or more kings: draw after the stronger side’s 15th move;',
      'kings on both sides, 4–5 pieces: 30 moves; 6–7 pieces: 60 moves;',
      'kings on both sides, 8 pieces or more: 15 moves in which only kings moved without capturing;',
      'any other position: 40 moves by each side without a capture or a promotion.',
    ],
  },
  'Every capture and every promotion restarts the counts. The live counters are shown next to the board.',
];

export default {
  index: {
    title: 'Draughts rules',
    lead: 'Seven rule variants, one room each. Pick a variant to read its full rules.',
    compare: 'The variants compared',
    common: 'At the table',
    commonText: [
      'When you create a table you set each player’s time for the whole game (1 to 15 minutes) and an increment added after each move (0 to 10 seconds). Your clock runs only on your turn; when it runs out, you lose.',
      'A game starts when both seats are taken and both players pressed Start. You can offer a draw or resign; until both players have made their first move, the game can be aborted without a result.',
      'To move, click your piece, then the square to move it to. For a multi-capture click each landing square in turn; the board offers only the legal continuations.',
      'A random opening starts the game after four random non-capturing moves (two by each side). The “capture optional” option (8x8 only, casual) lets you skip a capture and make a plain move.',
    ],
  },
  comparison: {
    head: ['Rule', 'American', 'Russian', 'Brazilian', 'Spanish', 'Italian', 'Czech', 'International'],
    rows: [
      ['Board / men per side', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '10x10 / 20'],
      ['First to move', 'Black', 'White', 'White', 'White', 'White', 'White', 'White'],
      ['Men capture backward', 'No', 'Yes', 'Yes', 'No', 'No', 'No', 'Yes'],
      ['Flying kings', 'No', 'Yes', 'Yes', 'Yes', 'No', 'Yes', 'Yes'],
      ['Men may capture kings', 'Yes', 'Yes', 'Yes', 'Yes', 'No', 'Yes', 'Yes'],
      ['Must take the most pieces', 'No', 'No', 'Yes', 'Yes', 'Yes', 'No', 'Yes'],
      ['Further capture priority', 'Free choice', 'Free choice', 'Free choice', 'Most kings', 'King captures first, then most kings, then earliest king', 'If a king can capture, a king must', 'Free choice'],
      ['Man reaching the last row during a capture', 'Crowned, move ends', 'Crowned, goes on capturing as a king', 'Goes on as a man; crowned if the move ends there', 'Crowned, move ends', 'Crowned, move ends', 'Crowned, move ends', 'Goes on as a man; crowned if the move ends there'],
    ],
  },
  variants: {
    american: {
      title: 'American checkers (English draughts) rules',
      intro: 'American checkers, called English draughts in Britain, is the 8x8 game most English speakers grow up with. Men move forward, capturing is compulsory, and kings move one square in any diagonal direction.',
      sections: [
        ['Board and setup', 'The board has 8 rows and 8 columns; only the 32 dark squares are used. Each player starts with 12 men on the dark squares of the three nearest rows. Black moves first. Squares are numbered 1 to 32 (PDN notation); Black starts on 1–12.'],
        ['Moving', 'A man moves one square diagonally forward to an empty dark square. Men never move or capture backward.'],
        ['Capturing', { ul: [
          'A piece jumps diagonally over an adjacent enemy piece to the empty square just beyond it.',
          'Capturing is compulsory: if any of your pieces can capture, you must capture.',
          'If the piece can capture again after landing, it must continue in the same move, and may change direction between jumps.',
          'With several captures available you may choose any of them: there is no duty to take the most pieces, but a started sequence must be completed.',
        ] }],
        ['Kings', 'A man reaching the last row becomes a king. If it gets there by capturing, it is crowned and the move ends, even if the new king could capture further. A king moves and captures one square diagonally in all four directions; it does not fly.'],
        ['Winning and drawing', draw40],
        ['Tips', { ul: [
          'Hold the centre: central pieces have more moves.',
          'Keep your back row as long as you can: it stops the opponent from crowning.',
          'Play in pairs: a piece with your own piece right behind it cannot be jumped from the front.',
          'Count the forced captures before every move: a well-placed sacrifice can set up a double or triple jump.',
        ] }],
      ],
    },
    russian: {
      title: 'Russian draughts rules',
      intro: 'Russian draughts is a fast 8x8 game with flying kings and men that also capture backward. There is no duty to take the most pieces, and a man that reaches the last row during a capture is crowned at once and goes on capturing.',
      sections: [
        ['Board and setup', 'Played on the 32 dark squares of an 8x8 board, 12 men a side. White moves first. Squares use algebraic notation: files a–h, ranks 1–8, a1 in White’s bottom-left corner. White starts on a1, c1, e1, g1, b2, d2, f2, h2, a3, c3, e3, g3.'],
        ['Moving', 'Men move one square diagonally forward. Kings fly: they move any number of empty squares along a diagonal, forward or backward.'],
        ['Capturing', { ul: [
          'Capturing is compulsory.',
          'Men capture forward and backward, jumping an adjacent enemy piece to the empty square beyond it.',
          'A king captures at a distance: with the squares between empty, it jumps the enemy piece and lands on any empty square beyond it; if it can capture again from some of those squares, it must land on one of them.',
          'You may choose any capture: there is no duty to take the most pieces. The chosen capture must be completed.',
          'Captured pieces stay on the board until the move ends and cannot be jumped twice.',
        ] }],
        ['Promotion', 'A man reaching the last row becomes a king. If it gets there during a capture and can capture further, it is crowned at once and goes on capturing as a king: the hallmark of Russian draughts.'],
        ['Winning and drawing', ...draw64],
        ['Tips', { ul: [
          'Mind backward captures: a man behind your lines is dangerous too.',
          'A promotion in the middle of a capture can turn a game around: look where a sequence of jumps ends.',
          'With a free choice of captures, choose by the resulting position, not by the number of pieces taken.',
        ] }],
      ],
    },
    brazilian: {
      title: 'Brazilian draughts rules',
      intro: 'Brazilian draughts brings the capture rules of 10x10 International draughts to the 8x8 board. Men capture backward, kings fly, and when you have a choice of captures you must take the route that captures the most pieces.',
      sections: [
        ['Board and setup', 'The board and setup are those of Russian draughts: 32 dark squares and 12 men a side on the three nearest rows. White moves first. Algebraic notation (a1–h8).'],
        ['Moving', 'Men move one square diagonally forward. Kings fly: a king may move any number of empty squares along a diagonal, forward or backward.'],
        ['Capturing', { ul: [
          'Capturing is compulsory.',
          'Men capture forward and backward, jumping an adjacent enemy piece to the empty square beyond it.',
          'A flying king may capture an enemy piece at a distance if the squares between are empty, and land on any empty square beyond it.',
          'Majority rule: you must make the capture that takes the most pieces. A king counts the same as a man. Among routes of equal length you choose freely.',
          'A multi-capture must be completed. Captured pieces stay on the board until the move ends and cannot be jumped twice.',
        ] }],
        ['Promotion', 'A man reaching the last row becomes a king. If it gets there in the middle of a capture and can capture further, it goes on as a man and is crowned only if the move ends on the last row (as in International draughts).'],
        ['Winning and drawing', ...draw64],
        ['Tips', { ul: [
          'Count the longest capture for both sides: the majority rule takes the choice away, so replies can often be foreseen.',
          'Steer with sacrifices: give a piece so that the forced longest capture ends where you can take back more.',
          'Beware of backward captures: keep your pieces in compact groups.',
        ] }],
      ],
    },
    spanish: {
      title: 'Spanish draughts rules',
      intro: 'Spanish draughts combines men that move and capture only forward with flying kings and two strict capture rules: take the most pieces, and if two routes take as many, take the most kings.',
      sections: [
        ['Board and setup', 'Spanish draughts uses 32 dark squares and 12 men a side. The board is the mirror image of the other 8x8 variants: each player’s bottom-left corner is a light square. White moves first. Squares are numbered 1 to 32; square 1 is White’s bottom-right corner and White starts on 1–12.'],
        ['Moving', 'Men move one square diagonally forward, never backward. Kings fly: a king may move any number of empty squares along a diagonal in any direction.'],
        ['Capturing', { ul: [
          'Capturing is compulsory.',
          'Men capture only forward.',
          'A flying king may capture an enemy piece at a distance if the squares between are empty, and land on any empty square beyond it.',
          'Quantity rule: you must choose the capture that takes the most pieces.',
          'Quality rule: if several captures take as many pieces, you must choose the one taking the most kings.',
          'A multi-capture must be completed. Captured pieces stay on the board until the move ends and cannot be jumped twice.',
        ] }],
        ['Promotion', 'A man reaching the last row becomes a king. If it gets there during a capture, it is crowned and the move ends.'],
        ['Winning and drawing', ...draw64],
        ['Tips', { ul: [
          'Guard your men from behind: they cannot capture backward, so a king behind your lines attacks safely.',
          'Get the first king: a flying king against forward-only men often decides the game.',
          'Count pieces first, then kings, to know which capture your opponent must make.',
        ] }],
      ],
    },
    italian: {
      title: 'Italian draughts rules',
      intro: 'Italian draughts has kings that move one square, men that may not capture kings, and the strictest capture priorities of all variants.',
      sections: [
        ['Board and setup', 'Played on 32 dark squares, 12 men a side, on a mirrored board: each player’s bottom-left corner is a light square. White moves first. Squares are numbered 1 to 32; square 1 is the top-left corner, Black starts on 1–12 and White on 21–32.'],
        ['Moving', 'Men move one square diagonally forward. Kings move one square diagonally in any direction; they do not fly.'],
        ['Capturing', { ul: [
          'Capturing is compulsory and a started capture must be completed.',
          'Men capture only forward and may never capture a king.',
          'Among all captures, in this order: 1) take the most pieces; 2) if a king can capture, capture with the king; 3) take the most kings; 4) meet a king as early as possible in the sequence. Any remaining choice is free.',
        ] }],
        ['Promotion', 'A man reaching the last row becomes a king, and the move ends.'],
        ['Winning and drawing', draw40],
        ['Tips', { ul: [
          'A king is safe from men: use it boldly in the centre.',
          'The priority rules make the opponent’s capture exactly predictable; count it before every sacrifice.',
        ] }],
      ],
    },
    czech: {
      title: 'Czech draughts rules',
      intro: 'Czech draughts sits between Russian and Spanish. Kings fly and men capture only forward, but there is no duty to take the most pieces. Instead there is one priority: whenever any of your kings can capture, you must capture with a king.',
      sections: [
        ['Board and setup', 'Czech draughts uses 32 dark squares and 12 men a side. White moves first. Algebraic notation (a1–h8), as in Russian draughts.'],
        ['Moving', 'Men move one square diagonally forward. Kings fly: a king may move any number of empty squares along a diagonal, forward or backward.'],
        ['Capturing', { ul: [
          'Capturing is compulsory.',
          'Men capture only forward.',
          'A flying king may capture an enemy piece at a distance if the squares between are empty, and land on any empty square beyond it.',
          'King first: if any of your kings can capture, you must capture with a king, even if a man could take more pieces.',
          'Apart from that you may choose any capture; there is no duty to take the most pieces.',
          'The chosen capture must be completed. Captured pieces stay on the board until the move ends and cannot be jumped twice.',
        ] }],
        ['Promotion', 'A man reaching the last row becomes a king. If it gets there during a capture, it is crowned and the move ends (Czech sources are silent on this; we follow the Spanish rule).'],
        ['Winning and drawing', ...draw64],
        ['Tips', { ul: [
          'Use the king-first rule: offering a piece to an enemy king forces a king capture.',
          'The rule binds you too: before promoting, check what your new king will be forced to take.',
          'Guard your men from behind: they cannot capture backward, so a king behind your lines is dangerous.',
        ] }],
      ],
    },
    international: {
      title: 'International draughts rules (10x10)',
      intro: 'International draughts is the FMJD tournament game: a 10x10 board, 20 men a side, men capture backward, kings fly, and you must take the most pieces.',
      sections: [
        ['Board and setup', 'Played on the 50 dark squares of a 10x10 board, 20 men a side on the four nearest rows. White moves first. Squares are numbered 1 to 50; Black stands on 1–20, White on 31–50.'],
        ['Moving', 'Men move one square diagonally forward. Kings fly: they move any number of empty squares along a diagonal in any direction.'],
        ['Capturing', { ul: [
          'Capturing is compulsory, backward too for men.',
          'A king captures at a distance and lands on any empty square beyond the captured piece, unless it can capture again from some of them: then it must land there and go on.',
          'Majority rule: you must make the capture that takes the most pieces; a king counts as a man.',
          'Captured pieces stay on the board until the move ends and cannot be jumped twice (the Turkish strike rule).',
        ] }],
        ['Promotion', 'A man is crowned when it ends its move on the last row. Passing the last row in the middle of a capture, it goes on as a man and is not crowned.'],
        ['Winning and drawing', 'You win when the opponent has no pieces or no move. Draws: the third repetition of a position; 25 moves by each side with only kings moving (a man move, capture or promotion restarts the count); a lone king against three pieces including at least one king: draw after 16 moves each; a lone king against at most two pieces including a king: draw after 5 moves each.'],
        ['Tips', { ul: [
          'The majority rule makes combinations possible: a sacrifice forces the longest capture, after which you take back more.',
          'Fight for the centre (squares 22–29) and leave no holes behind your men, since men capture backward.',
        ] }],
      ],
    },
  },
};
