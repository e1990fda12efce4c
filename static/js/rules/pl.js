// Strony zasad po polsku. Teksty na podstawie oryginalnych stron produktu (shared/seeds),
// poprawione tam, gdzie kontraktem jest spec/rules.md (kto zaczyna, limity remisowe).

const draw40 =
  'Wygrywasz, gdy przeciwnik nie ma już bierek albo nie może wykonać ruchu. Remis następuje automatycznie po trzecim powtórzeniu tej samej pozycji (przy ruchu tego samego gracza) oraz po 40 ruchach każdej strony bez bicia i bez promocji.';
const draw64 = [
  'Wygrywasz, gdy przeciwnik nie ma już bierek albo nie może wykonać ruchu. Trzecie powtórzenie tej samej pozycji to remis.',
  'Limity ruchów są zgodne z oficjalnymi przepisami warcabów 64-polowych (FMJD-64 7.2.4–7.2.8), a serwer stosuje je sam, bez zgłaszania:',
  {
    ul: [
      'samotna damka przeciw 1–2 bierkom (w tym damce): remis po 5. ruchu silniejszej strony;',
      'samotna damka na długiej przekątnej przeciw 3 bierkom z damką: remis po 5 ruchach, liczonych tylko, gdy damka stoi na tej przekątnej;',
      'samotna damka przeciw 3 lub więcej damkom: remis po 15. ruchu silniejszej strony;',
      'damki po obu stronach, 4–5 bierek: 30 ruchów; 6–7 bierek: 60 ruchów;',
      'damki po obu stronach, 8 bierek lub więcej: 15 ruchów samymi damkami bez bicia;',
      'w pozostałych pozycjach: 40 ruchów każdej strony bez bicia i bez promocji.',
    ],
  },
  'Każde bicie i każda promocja zeruje liczniki. Bieżące liczniki widać obok planszy.',
];

export default {
  index: {
    title: 'Zasady warcabów',
    lead: 'Siedem odmian zasad, każda z własną salą. Wybierz odmianę, aby przeczytać jej pełne zasady.',
    compare: 'Porównanie odmian',
    common: 'Przy stole',
    commonText: [
      'Przy stole ustawiasz czas na całą partię dla każdego gracza (od 1 do 15 minut) i dodatek doliczany po każdym ruchu (od 0 do 10 sekund). Zegar biegnie tylko w twojej turze. Gdy skończy się twój czas, przegrywasz.',
      'Partia zaczyna się, gdy oba miejsca są zajęte i obaj gracze nacisną Start. Możesz zaproponować remis albo poddać grę; dopóki obaj gracze nie wykonali pierwszego ruchu, partię można przerwać bez wyniku.',
      'Żeby wykonać ruch, kliknij swój pionek, a potem pole, na które chcesz go przesunąć. Przy biciu wielokrotnym klikaj kolejne pola lądowania; plansza pokazuje tylko dozwolone kontynuacje.',
      'Losowy debiut zaczyna grę z pozycji po czterech losowych ruchach bez bicia (po dwa każdej strony). Opcja „bicie nieobowiązkowe” (tylko 8x8, towarzysko) pozwala pominąć bicie i wykonać zwykły ruch.',
    ],
  },
  comparison: {
    head: ['Zasada', 'Amerykańskie', 'Rosyjskie', 'Brazylijskie', 'Hiszpańskie', 'Włoskie', 'Czeskie', 'Międzynarodowe'],
    rows: [
      ['Plansza / pionki na stronę', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '8x8 / 12', '10x10 / 20'],
      ['Zaczynają', 'czarne', 'białe', 'białe', 'białe', 'białe', 'białe', 'białe'],
      ['Pionki biją do tyłu', 'Nie', 'Tak', 'Tak', 'Nie', 'Nie', 'Nie', 'Tak'],
      ['Damki dalekobieżne', 'Nie', 'Tak', 'Tak', 'Tak', 'Nie', 'Tak', 'Tak'],
      ['Pionki mogą bić damki', 'Tak', 'Tak', 'Tak', 'Tak', 'Nie', 'Tak', 'Tak'],
      ['Obowiązek bicia największej liczby bierek', 'Nie', 'Nie', 'Tak', 'Tak', 'Tak', 'Nie', 'Tak'],
      ['Dodatkowe pierwszeństwo bicia', 'Dowolny wybór', 'Dowolny wybór', 'Dowolny wybór', 'Najwięcej damek', 'Bicie damką, potem najwięcej damek, potem najwcześniejsza damka', 'Jeśli damka może bić, musi bić damka', 'Dowolny wybór'],
      ['Pionek dochodzi do ostatniego rzędu w trakcie bicia', 'Zostaje damką, ruch się kończy', 'Zostaje damką, bije dalej jako damka', 'Bije dalej jako pionek; damką zostaje, gdy tam kończy', 'Zostaje damką, ruch się kończy', 'Zostaje damką, ruch się kończy', 'Zostaje damką, ruch się kończy', 'Bije dalej jako pionek; damką zostaje, gdy tam kończy'],
    ],
  },
  variants: {
    american: {
      title: 'Zasady warcabów amerykańskich (English draughts)',
      intro: 'Warcaby amerykańskie, w Wielkiej Brytanii zwane English draughts, to gra 8x8, na której wychowuje się większość osób anglojęzycznych. Pionki idą do przodu, bicie jest obowiązkowe, a damki ruszają się o jedno pole w dowolnym kierunku po przekątnej.',
      sections: [
        ['Plansza i ustawienie', 'Plansza ma 8 rzędów i 8 kolumn, a używa się tylko 32 ciemnych pól. Każdy gracz zaczyna z 12 pionkami na ciemnych polach trzech najbliższych rzędów. Pierwszy ruch należy do czarnych. Pola są numerowane od 1 do 32 (notacja PDN); czarne zaczynają na polach 1–12.'],
        ['Ruch', 'Pionek przesuwa się o jedno pole po przekątnej do przodu na puste ciemne pole. Pionki nigdy nie ruszają się ani nie biją do tyłu.'],
        ['Bicie', { ul: [
          'Bierka przeskakuje po przekątnej przez sąsiednią bierkę przeciwnika na puste pole tuż za nią.',
          'Bicie jest obowiązkowe: jeśli którakolwiek twoja bierka może bić, musisz bić.',
          'Jeśli po wylądowaniu bierka może bić dalej, musi kontynuować w tym samym ruchu i może zmieniać kierunek między skokami.',
          'Gdy dostępnych jest kilka bić, możesz wybrać dowolne. Nie ma obowiązku bicia największej liczby bierek, ale rozpoczętą serię trzeba dokończyć.',
        ] }],
        ['Damki', 'Pionek, który dotrze do ostatniego rzędu, zostaje damką. Jeśli dotrze tam biciem, zostaje damką i ruch się kończy, nawet gdyby nowa damka mogła bić dalej. Damka rusza się i bije o jedno pole po przekątnej we wszystkich czterech kierunkach; nie jest dalekobieżna.'],
        ['Wygrana i remis', draw40],
        ['Wskazówki', { ul: [
          'Trzymaj środek: bierki w centrum mają więcej ruchów.',
          'Jak najdłużej utrzymuj tylny rząd: nie pozwala przeciwnikowi zdobyć damki.',
          'Graj parami: bierki z własną bierką tuż za nią nie da się zbić od przodu.',
          'Przed każdym ruchem policz bicia wymuszone: dobrze ustawiona ofiara może przygotować podwójne lub potrójne bicie.',
        ] }],
      ],
    },
    russian: {
      title: 'Zasady warcabów rosyjskich',
      intro: 'Warcaby rosyjskie to szybka gra 8x8 z damkami dalekobieżnymi i pionkami bijącymi także do tyłu. Nie ma obowiązku bicia największej liczby bierek, a pionek, który w trakcie bicia dojdzie do ostatniego rzędu, od razu zostaje damką i bije dalej.',
      sections: [
        ['Plansza i ustawienie', 'Gra się na 32 ciemnych polach planszy 8x8, po 12 pionków na stronę. Zaczynają białe. Pola opisuje notacja algebraiczna: kolumny a–h, rzędy 1–8, pole a1 jest w lewym dolnym rogu białych. Białe zaczynają na polach a1, c1, e1, g1, b2, d2, f2, h2, a3, c3, e3, g3.'],
        ['Ruch', 'Pionki ruszają się o jedno pole po przekątnej do przodu. Damki są dalekobieżne: przechodzą dowolną liczbę pustych pól po przekątnej, do przodu lub do tyłu.'],
        ['Bicie', { ul: [
          'Bicie jest obowiązkowe.',
          'Pionki biją do przodu i do tyłu, przeskakując sąsiednią bierkę przeciwnika na puste pole za nią.',
          'Damka bije z odległości: jeśli pola pomiędzy są puste, przeskakuje bierkę przeciwnika i ląduje na dowolnym pustym polu za nią; jeśli z któregoś z tych pól może bić dalej, musi wylądować właśnie tam.',
          'Możesz wybrać dowolne bicie: nie ma obowiązku bicia największej liczby bierek. Wybrane bicie trzeba dokończyć.',
          'Zbite bierki zostają na planszy do końca ruchu i nie można ich przeskoczyć dwa razy.',
        ] }],
        ['Promocja', 'Pionek, który dotrze do ostatniego rzędu, zostaje damką. Jeśli dotrze tam w trakcie bicia i może bić dalej, od razu zostaje damką i kontynuuje bicie już jako damka. To cecha wyróżniająca warcaby rosyjskie.'],
        ['Wygrana i remis', ...draw64],
        ['Wskazówki', { ul: [
          'Pamiętaj o biciu do tyłu: pionek za twoimi liniami też jest groźny.',
          'Promocja w trakcie bicia potrafi odwrócić partię: sprawdzaj, dokąd doprowadzi seria skoków.',
          'Przy dowolnym wyborze bicia wybieraj według pozycji, która powstanie, a nie liczby zbitych bierek.',
        ] }],
      ],
    },
    brazilian: {
      title: 'Zasady warcabów brazylijskich',
      intro: 'Warcaby brazylijskie przenoszą zasady bicia z warcabów międzynarodowych 10x10 na planszę 8x8. Pionki biją do tyłu, damki są dalekobieżne, a gdy masz wybór między biciami, musisz wybrać drogę, która zbija najwięcej bierek.',
      sections: [
        ['Plansza i ustawienie', 'Plansza i ustawienie są takie same jak w warcabach rosyjskich: 32 ciemne pola i po 12 pionków na trzech najbliższych rzędach. Zaczynają białe. Notacja algebraiczna (a1–h8).'],
        ['Ruch', 'Pionki ruszają się o jedno pole po przekątnej do przodu. Damki są dalekobieżne: damka może przejść dowolną liczbę pustych pól po przekątnej, do przodu lub do tyłu.'],
        ['Bicie', { ul: [
          'Bicie jest obowiązkowe.',
          'Pionki biją do przodu i do tyłu, przeskakując sąsiednią bierkę przeciwnika na puste pole za nią.',
          'Damka dalekobieżna może zbić bierkę przeciwnika z odległości, jeśli pola pomiędzy są puste, i wylądować na dowolnym pustym polu za nią.',
          'Zasada bicia maksymalnego: musisz wykonać bicie, które zbija największą liczbę bierek. Damka liczy się tak samo jak pionek. Spośród dróg równej długości wybierasz dowolnie.',
          'Bicie wielokrotne trzeba dokończyć. Zbite bierki zostają na planszy do końca ruchu i nie można ich przeskoczyć dwa razy.',
        ] }],
        ['Promocja', 'Pionek, który dotrze do ostatniego rzędu, zostaje damką. Jeśli dotrze tam w środku bicia i może bić dalej, bije dalej jako zwykły pionek i zostaje damką tylko wtedy, gdy ruch kończy się w ostatnim rzędzie (jak w warcabach międzynarodowych).'],
        ['Wygrana i remis', ...draw64],
        ['Wskazówki', { ul: [
          'Licz najdłuższe bicie dla obu stron: zasada bicia maksymalnego odbiera wybór, więc odpowiedź przeciwnika często da się przewidzieć.',
          'Steruj ofiarami: oddaj bierkę tak, aby wymuszone najdłuższe bicie skończyło się na polu, z którego odbijesz więcej.',
          'Uważaj na bicia do tyłu: trzymaj bierki w zwartych grupach.',
        ] }],
      ],
    },
    spanish: {
      title: 'Zasady warcabów hiszpańskich',
      intro: 'Warcaby hiszpańskie łączą pionki ruszające się i bijące tylko do przodu z damkami dalekobieżnymi i dwiema ścisłymi zasadami bicia: zbij najwięcej bierek, a jeśli dwie drogi zbijają tyle samo, zbij najwięcej damek.',
      sections: [
        ['Plansza i ustawienie', 'Warcaby hiszpańskie używają 32 ciemnych pól i po 12 pionków na stronę. Plansza jest lustrzanym odbiciem innych odmian 8x8: lewy dolny róg gracza jest polem jasnym. Zaczynają białe. Pola są numerowane od 1 do 32; pole 1 leży w prawym dolnym rogu białych, które zaczynają na polach 1–12.'],
        ['Ruch', 'Pionki ruszają się o jedno pole po przekątnej do przodu, nigdy do tyłu. Damki są dalekobieżne: damka może przejść dowolną liczbę pustych pól po przekątnej w dowolnym kierunku.'],
        ['Bicie', { ul: [
          'Bicie jest obowiązkowe.',
          'Pionki biją tylko do przodu.',
          'Damka dalekobieżna może zbić bierkę przeciwnika z odległości, jeśli pola pomiędzy są puste, i wylądować na dowolnym pustym polu za nią.',
          'Zasada ilości: musisz wybrać bicie, które zbija najwięcej bierek.',
          'Zasada jakości: jeśli kilka bić zbija tyle samo bierek, musisz wybrać to, które zbija najwięcej damek.',
          'Bicie wielokrotne trzeba dokończyć. Zbite bierki zostają na planszy do końca ruchu i nie można ich przeskoczyć dwa razy.',
        ] }],
        ['Promocja', 'Pionek, który dotrze do ostatniego rzędu, zostaje damką. Jeśli dotrze tam w trakcie bicia, zostaje damką i ruch się kończy.'],
        ['Wygrana i remis', ...draw64],
        ['Wskazówki', { ul: [
          'Chroń pionki od tyłu: nie biją do tyłu, więc damka za twoimi liniami atakuje bez obawy przed kontrą.',
          'Zdobądź pierwszą damkę: damka dalekobieżna przeciw pionkom bijącym tylko do przodu często rozstrzyga partię.',
          'Licz najpierw bierki, potem damki, aby wiedzieć, jakie bicie musi wykonać przeciwnik.',
        ] }],
      ],
    },
    italian: {
      title: 'Zasady warcabów włoskich',
      intro: 'Warcaby włoskie mają damki ruszające się o jedno pole, pionki, które nie mogą bić damek, i najściślejsze zasady pierwszeństwa bicia ze wszystkich odmian.',
      sections: [
        ['Plansza i ustawienie', 'Gra się na 32 ciemnych polach, po 12 pionków na stronę, na planszy lustrzanej: lewy dolny róg gracza jest polem jasnym. Zaczynają białe. Pola są numerowane od 1 do 32; pole 1 leży w lewym górnym rogu, czarne zaczynają na polach 1–12, białe na 21–32.'],
        ['Ruch', 'Pionki ruszają się o jedno pole po przekątnej do przodu. Damki ruszają się o jedno pole po przekątnej w każdym kierunku; nie są dalekobieżne.'],
        ['Bicie', { ul: [
          'Bicie jest obowiązkowe, a rozpoczęte bicie trzeba dokończyć.',
          'Pionki biją tylko do przodu i nigdy nie mogą bić damki.',
          'Spośród wszystkich bić obowiązuje kolejno: 1) zbij najwięcej bierek; 2) jeśli może bić damka, bij damką; 3) zbij najwięcej damek; 4) zbij damkę jak najwcześniej w serii. Pozostały wybór jest dowolny.',
        ] }],
        ['Promocja', 'Pionek, który dotrze do ostatniego rzędu, zostaje damką, a ruch się kończy.'],
        ['Wygrana i remis', draw40],
        ['Wskazówki', { ul: [
          'Damka jest bezpieczna przed pionkami: używaj jej odważnie w środku planszy.',
          'Zasady pierwszeństwa pozwalają dokładnie przewidzieć bicie przeciwnika; licz je przed każdą ofiarą.',
        ] }],
      ],
    },
    czech: {
      title: 'Zasady warcabów czeskich',
      intro: 'Warcaby czeskie leżą pomiędzy rosyjskimi a hiszpańskimi. Damki są dalekobieżne, a pionki biją tylko do przodu, ale nie ma obowiązku zbijania największej liczby bierek. Zamiast tego obowiązuje jedno pierwszeństwo: gdy tylko któraś z twoich damek może bić, musisz bić damką.',
      sections: [
        ['Plansza i ustawienie', 'Warcaby czeskie używają 32 ciemnych pól i po 12 pionków na stronę. Zaczynają białe. Notacja algebraiczna (a1–h8), jak w warcabach rosyjskich.'],
        ['Ruch', 'Pionki ruszają się o jedno pole po przekątnej do przodu. Damki są dalekobieżne: damka może przejść dowolną liczbę pustych pól po przekątnej, do przodu lub do tyłu.'],
        ['Bicie', { ul: [
          'Bicie jest obowiązkowe.',
          'Pionki biją tylko do przodu.',
          'Damka dalekobieżna może zbić bierkę przeciwnika z odległości, jeśli pola pomiędzy są puste, i wylądować na dowolnym pustym polu za nią.',
          'Damka najpierw: jeśli którakolwiek twoja damka może bić, musisz bić damką, nawet jeśli pionek mógłby zbić więcej bierek.',
          'Poza tą zasadą możesz wybrać dowolne bicie. Nie ma obowiązku zbijania największej liczby bierek.',
          'Wybrane bicie trzeba dokończyć. Zbite bierki zostają na planszy do końca ruchu i nie można ich przeskoczyć dwa razy.',
        ] }],
        ['Promocja', 'Pionek, który dotrze do ostatniego rzędu, zostaje damką. Jeśli dotrze tam w trakcie bicia, zostaje damką i ruch się kończy (źródła czeskie milczą w tej sprawie; przyjmujemy zasadę hiszpańską).'],
        ['Wygrana i remis', ...draw64],
        ['Wskazówki', { ul: [
          'Wykorzystuj zasadę damka najpierw: podstawiając bierkę damce przeciwnika, wymuszasz bicie damką.',
          'Pamiętaj, że zasada wiąże też ciebie: przed promocją sprawdź, co twoja nowa damka będzie musiała bić.',
          'Chroń pionki od tyłu: nie biją do tyłu, więc damka za twoimi liniami jest groźna.',
        ] }],
      ],
    },
    international: {
      title: 'Zasady warcabów międzynarodowych (10x10)',
      intro: 'Warcaby międzynarodowe to odmiana turniejowa FMJD: plansza 10x10, po 20 pionków, pionki biją do tyłu, damki są dalekobieżne i trzeba zbić najwięcej bierek.',
      sections: [
        ['Plansza i ustawienie', 'Gra się na 50 ciemnych polach planszy 10x10, po 20 pionków na stronę na czterech najbliższych rzędach. Zaczynają białe. Pola są numerowane od 1 do 50; czarne stoją na polach 1–20, białe na 31–50.'],
        ['Ruch', 'Pionki ruszają się o jedno pole po przekątnej do przodu. Damki są dalekobieżne: przechodzą dowolną liczbę pustych pól po przekątnej w każdym kierunku.'],
        ['Bicie', { ul: [
          'Bicie jest obowiązkowe, także do tyłu dla pionków.',
          'Damka bije z odległości i ląduje na dowolnym pustym polu za zbitą bierką, chyba że z któregoś z nich może bić dalej: wtedy musi wylądować tam i kontynuować.',
          'Zasada bicia maksymalnego: musisz wykonać bicie zbijające najwięcej bierek; damka liczy się jak pionek.',
          'Zbite bierki zostają na planszy do końca ruchu i nie można ich przeskoczyć dwa razy (tzw. turecki zakaz).',
        ] }],
        ['Promocja', 'Pionek zostaje damką, gdy kończy ruch w ostatnim rzędzie. Jeśli przechodzi przez ostatni rząd w środku bicia, bije dalej jako pionek i damką nie zostaje.'],
        ['Wygrana i remis', 'Wygrywasz, gdy przeciwnik nie ma bierek albo ruchu. Remis: trzecie powtórzenie pozycji; 25 ruchów każdej strony samymi damkami (ruch pionkiem, bicie lub promocja zeruje licznik); samotna damka przeciw trzem bierkom z co najmniej jedną damką: remis po 16 ruchach każdej strony; samotna damka przeciw najwyżej dwóm bierkom z damką: remis po 5 ruchach każdej strony.'],
        ['Wskazówki', { ul: [
          'Bicie maksymalne pozwala budować kombinacje: ofiara wymusza najdłuższe bicie, po którym odbijasz więcej.',
          'Walcz o środek (pola 22–29) i nie zostawiaj luk za pionkami, bo pionki biją do tyłu.',
        ] }],
      ],
    },
  },
};
